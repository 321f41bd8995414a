! caf_comp: coarrays of derived types with allocatable components at 1..4
! images, which gfortran reaches through chains of references: an array
! component allocated with another size on every image (the remote bounds
! are the remote image's), a scalar allocatable component, plain and
! fixed-size array components beside them, an allocatable coarray of such
! a type, sections, vector subscripts, kind conversion, an assignment
! between two other images, ALLOCATED() of another image's component, and
! components deallocated and allocated again.  Every element is checked
! where it lands and around it.
program caf_comp
  use caf_check
  implicit none
  type cell
    integer, allocatable :: v(:)
    real(8) :: x
    integer :: fixed(6)
    real, allocatable :: s
  end type
  type(cell) :: d[*]
  type(cell), allocatable :: e(:)[:]
  integer :: me, np, nxt, prv, i, k, n, got(8)
  integer(8) :: g8(3)
  real :: sv

  me = this_image(); np = num_images()
  nxt = merge(1, me + 1, me == np); prv = merge(np, me - 1, me == 1)
  n = 4 + me                                     ! each image its own size
  allocate(d%v(0:n - 1), d%s)
  d%v = [(100 * me + i, i = 0, n - 1)]
  d%x = me; d%fixed = -me; d%s = 0.5 * me
  sync all

  ! ---- gets through the components, with the remote image's bounds ----
  call check(d[prv]%x == prv, 'plain component get')
  call check(all(d[prv]%fixed == -prv), 'fixed-size array component get')
  call check(d[prv]%s == 0.5 * prv, 'scalar allocatable component get')
  k = d[prv]%v(3 + prv)                          ! the last element there
  call check(k == 100 * prv + 3 + prv, 'element at the remote upper bound')
  got = -1
  got(1:3) = d[prv]%v(0:4:2)
  call check(all(got(1:3) == [100 * prv, 100 * prv + 2, 100 * prv + 4]) .and. all(got(4:) == -1), &
             'strided section get')
  got = -1
  got(1:3) = d[prv]%v([4, 0, 1])
  call check(all(got(1:3) == [100 * prv + 4, 100 * prv, 100 * prv + 1]), 'vector subscript get')
  g8 = d[prv]%v(1:3)                             ! integer(4) -> integer(8)
  call check(all(g8 == [(int(100 * prv + i, 8), i = 1, 3)]), 'kind conversion get')
  call check(allocated(d[prv]%v), 'ALLOCATED of another image''s component')
  sync all

  ! ---- puts through the components ----
  d[nxt]%v(1:3:2) = -7                           ! within every image's bounds (0..4 at least)
  d[nxt]%x = 10d0 * me
  d[nxt]%fixed(2:5) = [1, 2, 3, 4] * me
  d[nxt]%s = 1.5 * me
  sync all
  do i = 0, 3 + me
    if (i == 1 .or. i == 3) then
      call check(d%v(i) == -7, 'strided section put')
    else
      call check(d%v(i) == 100 * me + i, 'strided section put: outside untouched')
    end if
  end do
  call check(d%x == 10d0 * prv, 'plain component put')
  call check(all(d%fixed == [-me, prv, 2 * prv, 3 * prv, 4 * prv, -me]), 'fixed-size array component put')
  call check(d%s == 1.5 * prv, 'scalar allocatable component put')
  sync all

  ! ---- image 1 moves image 2's components into image np's ----
  d%v = [(100 * me + i, i = 0, n - 1)]
  sync all
  if (me == 1 .and. np >= 2) d[np]%v(0:2) = d[2]%v(2:4)
  sync all
  if (me == np .and. np >= 2) then
    call check(all(d%v(0:2) == [202, 203, 204]), 'assignment between two other images')
    call check(all(d%v(3:) == [(100 * me + i, i = 3, n - 1)]), 'assignment between images: rest untouched')
  end if
  sync all

  ! ---- deallocated and allocated again, with another size ----
  deallocate(d%v)
  sync all
  if (np >= 2) call check(.not. allocated(d[nxt]%v), 'ALLOCATED false once deallocated there')
  sync all
  allocate(d%v(10 * me))
  d%v = me
  sync all
  call check(size(d[prv]%v) == 10 * prv, 'reallocated component: its new size')
  call check(all(d[prv]%v(10 * prv - 2:) == prv), 'reallocated component: its new data')
  sync all

  ! ---- an allocatable coarray of the type ----
  allocate(e(3)[*])
  do i = 1, 3
    allocate(e(i)%v(i))
    e(i)%v = 1000 * me + 10 * i + [(k, k = 1, i)]
    e(i)%x = i
  end do
  sync all
  do i = 1, 3
    got = -1
    got(1:i) = e(i)[prv]%v
    call check(all(got(1:i) == 1000 * prv + 10 * i + [(k, k = 1, i)]), 'allocatable coarray of the type: get')
  end do
  sync all
  e(2)[nxt]%v(2) = -me
  sync all
  call check(e(2)%v(2) == -prv .and. e(2)%v(1) == 1000 * me + 21, 'allocatable coarray of the type: put')
  sync all
  do i = 1, 3
    deallocate(e(i)%v)
  end do
  deallocate(e)
  deallocate(d%v, d%s)

  call finish('caf_comp')
end program caf_comp
