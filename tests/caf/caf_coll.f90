! caf_coll: the collective subroutines at 1..4 images, results checked
! against values computed from image numbers: CO_SUM, CO_MIN, CO_MAX of
! every integer and real kind, complex, character; with and without
! RESULT_IMAGE (the other images' argument then left as it was is not
! required, so only the result image is checked); strided sections; a
! large array (the scratch window grows); CO_BROADCAST of arrays, character
! and derived types from every image; CO_REDUCE with value and reference
! arguments, logical and character operations; STAT= for a bad image.
program caf_coll
  use caf_check
  implicit none
  integer, parameter :: big = 300000
  type pt
    integer :: i
    real(8) :: x
    character(len=3) :: c
  end type
  integer :: me, np, i, r, st, s
  integer(1) :: i1
  integer(2) :: i2
  integer(8) :: i8(5)
  real(4) :: r4(3)
  real(8) :: r8(10), expect8
  complex(8) :: z
  character(len=4) :: c4(2)
  integer, allocatable :: large(:)
  integer :: strided(12)
  type(pt) :: p(2)
  logical :: l

  me = this_image(); np = num_images()
  s = np * (np + 1) / 2

  ! ---- CO_SUM ----
  i1 = int(me, 1); call co_sum(i1); call check(i1 == s, 'co_sum integer(1)')
  i2 = int(me, 2); call co_sum(i2); call check(i2 == s, 'co_sum integer(2)')
  i8 = [(int(me, 8) * 10_8**9 + i, i = 1, 5)]
  call co_sum(i8)
  call check(all(i8 == [(int(s, 8) * 10_8**9 + np * i, i = 1, 5)]), 'co_sum integer(8) array')
  r4 = [real(me), 0.5 * me, -1.0]
  call co_sum(r4)
  call check(all(r4 == [real(s), 0.5 * s, -1.0 * np]), 'co_sum real(4)')
  z = cmplx(me, -me, 8)
  call co_sum(z)
  call check(z == cmplx(s, -s, 8), 'co_sum complex(8)')
  do r = 1, np
    r8 = me
    call co_sum(r8, result_image=r)
    if (me == r) call check(all(r8 == real(s, 8)), 'co_sum result_image')
  end do
  strided = -me
  strided(1:12:3) = me
  call co_sum(strided(1:12:3))
  do i = 1, 12
    call check(strided(i) == merge(s, -me, mod(i - 1, 3) == 0), 'co_sum strided section')
  end do
  allocate(large(big))
  large = [(me + i, i = 1, big)]
  call co_sum(large)
  call check(all(large == [(s + np * i, i = 1, big)]), 'co_sum large array')
  deallocate(large)

  ! ---- CO_MIN / CO_MAX ----
  i8 = [(int(me * i, 8), i = 1, 5)]
  call co_max(i8)
  call check(all(i8 == [(int(np * i, 8), i = 1, 5)]), 'co_max integer(8)')
  r8 = [(real(me, 8) - i, i = 1, 10)]
  call co_min(r8)
  call check(all(r8 == [(1d0 - i, i = 1, 10)]), 'co_min real(8)')
  do r = 1, np
    i2 = int(10 - me, 2)
    call co_min(i2, result_image=r)
    if (me == r) call check(i2 == 10 - np, 'co_min result_image')
  end do
  c4 = [achar(iachar('a') + me) // 'zzz', 'k' // achar(iachar('a') + np - me) // 'yy']
  call co_max(c4)
  call check(c4(1) == achar(iachar('a') + np) // 'zzz', 'co_max character')
  call check(c4(2) == 'k' // achar(iachar('a') + np - 1) // 'yy', 'co_max character 2')
  c4 = [achar(iachar('a') + me) // 'zzz', 'mmmm']
  call co_min(c4)
  call check(c4(1) == 'bzzz' .and. c4(2) == 'mmmm', 'co_min character')

  ! ---- CO_BROADCAST from every image ----
  do r = 1, np
    r8 = [(real(me * 100 + i, 8), i = 1, 10)]
    c4 = 'img' // achar(iachar('0') + me)
    p = [pt(me, me * 0.25d0, 'ab' // achar(iachar('0') + me)), pt(-me, -1d0, 'xyz')]
    call co_broadcast(r8, r)
    call co_broadcast(c4, r)
    call co_broadcast(p, r)
    call check(all(r8 == [(real(r * 100 + i, 8), i = 1, 10)]), 'co_broadcast real(8)')
    call check(all(c4 == 'img' // achar(iachar('0') + r)), 'co_broadcast character')
    call check(p(1)%i == r .and. p(1)%x == r * 0.25d0 .and. p(1)%c == 'ab' // achar(iachar('0') + r), &
               'co_broadcast derived type')
    call check(p(2)%i == -r .and. p(2)%c == 'xyz', 'co_broadcast derived type 2')
  end do

  ! ---- CO_REDUCE ----
  i = me
  call co_reduce(i, add_value)
  call check(i == s, 'co_reduce by value')
  r8 = [(real(me, 8), i = 1, 10)]
  call co_reduce(r8, mul_ref)
  expect8 = 1
  do i = 1, np
    expect8 = expect8 * i
  end do
  call check(all(r8 == expect8), 'co_reduce by reference')
  l = me /= 2
  call co_reduce(l, and_ref)
  call check(l .eqv. (np < 2), 'co_reduce logical')
  do r = 1, np
    i = me
    call co_reduce(i, add_value, result_image=r)
    if (me == r) call check(i == s, 'co_reduce result_image')
  end do
  c4 = [character(len=4) :: achar(iachar('a') + me) // 'bcd', 'zz' // achar(iachar('0') + me) // 'z']
  call co_reduce(c4, cmin)
  call check(c4(1) == 'bbcd' .and. c4(2) == 'zz1z', 'co_reduce character')

  ! ---- STAT= ----
  i = 1
  call co_sum(i, result_image=np + 1, stat=st)
  call check(st /= 0, 'co_sum bad result_image gives a stat')
  call co_broadcast(i, 0, stat=st)
  call check(st /= 0, 'co_broadcast bad source_image gives a stat')

  call finish('caf_coll')

contains

  pure function add_value(a, b) result(c)
    integer, value :: a, b
    integer :: c
    c = a + b
  end function

  pure function mul_ref(a, b) result(c)
    real(8), intent(in) :: a, b
    real(8) :: c
    c = a * b
  end function

  pure function and_ref(a, b) result(c)
    logical, intent(in) :: a, b
    logical :: c
    c = a .and. b
  end function

  pure function cmin(a, b) result(c)
    character(len=4), intent(in) :: a, b
    character(len=4) :: c
    c = merge(a, b, llt(a, b))
  end function

end program caf_coll
