! caf_xfer: coarray assignments to and from other images at 1..4 images,
! every one checked where it lands and around it: scalars, whole arrays,
! strided and negative-stride sections of 1..3 dimensions, allocatable
! coarrays, vector subscripts, kind and type conversion, character
! lengths, a scalar broadcast into a section, and sendget between two
! other images.  Each image puts into the next (ring) and reads from the
! previous one; the check is against values computed from image numbers.
program caf_xfer
  use caf_check
  implicit none
  integer, parameter :: n1 = 12, n2 = 7, n3 = 5
  integer :: a(n1)[*]
  real(8) :: m(n1, n2)[*]
  integer(8) :: w(n1)[*]
  character(len=6) :: s[*]
  real(4), allocatable :: c(:,:,:)[:]
  integer :: me, np, nxt, prv, i, j, k
  integer :: v(4)
  integer :: loc(n1)
  real(8) :: col(n1)

  me = this_image(); np = num_images()
  nxt = merge(1, me + 1, me == np); prv = merge(np, me - 1, me == 1)

  ! ---- whole array and scalar element ----
  a = -1
  sync all
  a(:)[nxt] = [(100*me + i, i = 1, n1)]
  sync all
  do i = 1, n1
    call check(a(i) == 100*prv + i, 'whole array put')
  end do
  sync all

  ! ---- strided section, positive and negative stride ----
  a = -1
  sync all
  a(2:11:3)[nxt] = [(1000*me + i, i = 1, 4)]
  sync all
  do i = 1, n1
    if (i >= 2 .and. mod(i - 2, 3) == 0 .and. i <= 11) then
      call check(a(i) == 1000*prv + (i - 2)/3 + 1, 'strided put')
    else
      call check(a(i) == -1, 'strided put: outside untouched')
    end if
  end do
  sync all
  a = -1
  sync all
  a(10:1:-3)[nxt] = [(2000*me + i, i = 1, 4)]
  sync all
  do i = 1, n1
    if (i <= 10 .and. mod(10 - i, 3) == 0) then
      call check(a(i) == 2000*prv + (10 - i)/3 + 1, 'negative-stride put')
    else
      call check(a(i) == -1, 'negative-stride put: outside untouched')
    end if
  end do
  sync all

  ! ---- get of a strided section from the previous image ----
  a = [(10*me + i, i = 1, n1)]
  sync all
  loc = -7
  loc(1:4) = a(1:n1:3)[prv]
  do i = 1, 4
    call check(loc(i) == 10*prv + 3*(i - 1) + 1, 'strided get')
  end do
  do i = 5, n1
    call check(loc(i) == -7, 'strided get: outside untouched')
  end do
  call check(a(5)[prv] == 10*prv + 5, 'scalar element get')
  sync all

  ! ---- 2-D: a row (strided) and a column (contiguous) ----
  m = -1d0
  sync all
  m(3, :)[nxt] = [(real(me*100 + j, 8), j = 1, n2)]
  m(:, 2)[nxt] = [(real(me*1000 + i, 8), i = 1, n1)]
  sync all
  do j = 1, n2
    do i = 1, n1
      if (j == 2) then
        call check(m(i, j) == real(prv*1000 + i, 8), '2-D column put')
      else if (i == 3) then
        call check(m(i, j) == real(prv*100 + j, 8), '2-D row put')
      else
        call check(m(i, j) == -1d0, '2-D put: outside untouched')
      end if
    end do
  end do
  col = m(:, 2)[prv]
  sync all
  ! ---- a block m(2:9:2, 3:6) got whole ----
  m = reshape([(real(me*10000 + i, 8), i = 1, n1*n2)], [n1, n2])
  sync all
  block
    real(8) :: blk(4, 4)
    blk = m(2:9:2, 3:6)[prv]
    do j = 1, 4
      do i = 1, 4
        call check(blk(i, j) == real(prv*10000 + (2 + 2*(i - 1)) + n1*(3 + j - 2), 8), '2-D block get')
      end do
    end do
  end block
  sync all

  ! ---- allocatable 3-D coarray, a strided sub-block ----
  allocate(c(n1, n2, n3)[*])
  c = -1.0
  sync all
  c(1:n1:2, 2:n2:2, 1:n3:4)[nxt] = reshape([(real(me + i), i = 1, 6*3*2)], [6, 3, 2])
  sync all
  do k = 1, n3
    do j = 1, n2
      do i = 1, n1
        if (mod(i, 2) == 1 .and. mod(j, 2) == 0 .and. mod(k - 1, 4) == 0) then
          call check(c(i, j, k) == real(prv + (i + 1)/2 + 6*(j/2 - 1) + 18*((k - 1)/4)), '3-D sub-block put')
        else
          call check(c(i, j, k) == -1.0, '3-D put: outside untouched')
        end if
      end do
    end do
  end do
  sync all
  deallocate(c)

  ! ---- vector subscripts ----
  a = -1
  sync all
  v = [11, 2, 7, 4]
  a(v)[nxt] = [(3000*me + i, i = 1, 4)]
  sync all
  do i = 1, n1
    if (any(v == i)) then
      call check(a(i) == 3000*prv + findloc(v, i, 1), 'vector-subscript put')
    else
      call check(a(i) == -1, 'vector-subscript put: outside untouched')
    end if
  end do
  sync all

  ! ---- kind and type conversion ----
  w = -1
  sync all
  w(:)[nxt] = [(100*me + i, i = 1, n1)]            ! integer(4) -> integer(8)
  sync all
  do i = 1, n1
    call check(w(i) == int(100*prv + i, 8), 'integer(4) -> integer(8) put')
  end do
  sync all
  loc = -1
  loc(3:5) = int(w(1:3)[prv])
  call check(all(loc(3:5) == [(100*(merge(np, prv - 1, prv == 1)) + i, i = 1, 3)]), 'integer(8) get')
  m(1, 1)[nxt] = 7                                 ! integer -> real(8)
  sync all
  call check(m(1, 1) == 7d0, 'integer -> real(8) put')
  sync all

  ! ---- scalar broadcast into a section ----
  a = -1
  sync all
  a(4:9)[nxt] = 42 + me
  sync all
  do i = 1, n1
    call check(a(i) == merge(42 + prv, -1, i >= 4 .and. i <= 9), 'scalar into section')
  end do
  sync all

  ! ---- character lengths ----
  s = 'xxxxxx'
  sync all
  s[nxt] = 'ab'
  sync all
  call check(s == 'ab    ', 'character padded')
  sync all
  s[nxt] = 'abcdefghij'
  sync all
  call check(s == 'abcdef', 'character truncated')
  sync all

  ! ---- sendget: image 1 moves image 2's data into image np's ----
  a = [(me*7 + i, i = 1, n1)]
  sync all
  if (me == 1 .and. np >= 2) then
    a(1:n1:2)[np] = a(2:n1:2)[2]
  end if
  sync all
  if (me == np .and. np >= 2) then
    do i = 1, n1
      if (mod(i, 2) == 1) then
        call check(a(i) == 2*7 + i + 1, 'sendget')
      else
        call check(a(i) == np*7 + i, 'sendget: outside untouched')
      end if
    end do
  end if

  sync all
  call finish('caf_xfer')

end program caf_xfer
