! caf_prk: the Parallel Research Kernels' patterns written with coarrays,
! for caf_bench prk KERNEL [SECONDS].  caf_mpi_prk.c is the same in plain
! MPI: same definitions, same data movement, same output line.
!
!   nstream    per image arrays A, B, C of 2**21 real(8); A = 0, B = 2,
!              C = 2; an iteration: A = A + B + 3*C (no communication).
!              Check: the sum of |A| over all images is np * 2**21 * 8K.
!   stencil    radius 2 star stencil on a 1000 x 1000 grid, IN(i,j) = i+j
!              (0-based global indices), OUT = 0; the weights at (0,+k)
!              and (+k,0) are 1/(2kR), at (0,-k) and (-k,0) -1/(2kR).  An
!              iteration: OUT += the stencil of IN at every interior point
!              (R..n-1-R in both indices), then IN += 1.  The columns (the
!              second index, contiguous) are split into balanced blocks
!              (the first mod(n,np) images hold one more); an image puts its
!              R edge columns into its neighbours' halo columns, then syncs
!              with them; before the next iteration's puts it syncs with
!              them again, so that no halo is overwritten while it is read.
!              Check: the mean of |OUT| over the interior points is 2K.
!   transpose  order 1024 matrices A and B split into column blocks (N
!              must be divisible by the number of images), A(i,j) = j*N+i
!              (0-based global), B = 0; an iteration: B(i,j) += A(j,i),
!              then A += 1.  In phase q = 0..np-1 an image reads, in one
!              strided section, the rows of A that are its own columns
!              from the columns of image me+q (mod np), then adds the
!              block's transpose into B.  A sync all before A += 1 (nobody
!              reads A any more), one after it (nobody reads A before it
!              is incremented).  Check: B(i,j) = K*A0(j,i) + K(K-1)/2.
!   p2p        the pipeline on a 1000 x 1000 grid v(i,j) (0-based global,
!              i fastest), v(i,0) = i, v(0,j) = j, the rest 0; an
!              iteration: v(i,j) = v(i-1,j) + v(i,j-1) - v(i-1,j-1) for
!              j = 1..n-1, i = 1..m-1, then v(0,0) = -v(m-1,n-1).  The i
!              range is split into balanced blocks; for each row j an image
!              waits (EVENT WAIT) for its left neighbour's last value of
!              the row, which lands in its halo v(start-1, j) (one halo
!              element per row, so a value is never overwritten before it
!              is read), computes its part of the row, puts its last value
!              into its right neighbour's halo and posts that neighbour's
!              event.  The last image puts -v(m-1,n-1) into image 1's
!              v(0,0) and posts image 1's corner event, which image 1 waits
!              for at the end of each iteration.  Check: v(m-1,n-1) is
!              K*(m+n-2).
!
! K is every iteration run since the initialisation, calibration included;
! the checks take a relative error below 1e-8 (transpose: a summed
! absolute error below 1e-8).
!
! Timing: after a sync all, 3 iterations give t0 (seconds per iteration,
! at least 1e-6); an image wants max(1, int(0.1/t0)) iterations per batch
! and max(3, int(seconds/(iters*t0))) batches, the largest over the
! images is taken.  Each batch starts with a sync all; its time is the
! largest over the images.  Image 1 prints one line:
!
!   prk KERNEL NP ITERS MIN MED MAX BAD
!
! ITERS the iterations timed (iters * batches), MIN MED MAX microseconds
! per iteration over the batches, BAD the number of failed checks (0: the
! results are right).
module caf_bench_prk
  use caf_bench_util
  implicit none
  private
  public :: prk

  ! Where a kernel's timing is (timing_next).
  type :: timing
    integer :: phase = 0, bt = 0, iters = 0, nbatch = 0
    integer(8) :: c0 = 0, crate = 1
    real(8), allocatable :: t(:)
  end type timing

  real(8), parameter :: tol = 1d-8

contains

subroutine prk(kernel, seconds)
  character(*), intent(in) :: kernel
  real(8), intent(in) :: seconds
  select case (kernel)
  case ('nstream'); call nstream(seconds)
  case ('stencil'); call stencil(seconds)
  case ('transpose'); call transpose_kernel(seconds)
  case ('p2p'); call p2p(seconds)
  case default
    error stop 'caf_bench prk: unknown KERNEL "' // kernel // '" (nstream, stencil, transpose, p2p)'
  end select
end subroutine prk

! The batches from the calibration's time for 3 iterations (tcal, seconds).
subroutine plan(tcal, seconds, iters, nbatch)
  real(8), intent(in) :: tcal, seconds
  integer, intent(out) :: iters, nbatch
  real(8) :: t0
  t0 = max(tcal / 3, 1d-6)
  iters = max(1, int(0.1d0 / t0))
  call co_max(iters)
  nbatch = max(3, int(seconds / (iters * t0)))
  call co_max(nbatch)
end subroutine plan

! A kernel's timing, as a loop the kernel runs:
!   do
!     call timing_next(tm, seconds, n, more)
!     if (.not. more) exit
!     call iterate(n)
!   end do
! first 3 iterations to calibrate (plan), then the batches of tm%iters
! iterations, each after a sync all; tm%t gets every batch's time
! (seconds, the largest over the images).
subroutine timing_next(tm, seconds, n, more)
  type(timing), intent(inout) :: tm
  real(8), intent(in) :: seconds
  integer, intent(out) :: n
  logical, intent(out) :: more
  integer(8) :: c1
  call system_clock(c1)
  n = 0
  select case (tm%phase)
  case (0)
    sync all
    call system_clock(tm%c0, tm%crate)
    tm%phase = 1
    n = 3
    more = .true.
    return
  case (1)
    call plan(dble(c1 - tm%c0) / tm%crate, seconds, tm%iters, tm%nbatch)
    allocate(tm%t(tm%nbatch))
    tm%phase = 2
  case default
    tm%bt = tm%bt + 1
    tm%t(tm%bt) = dble(c1 - tm%c0) / tm%crate
    call co_max(tm%t(tm%bt))
  end select
  more = tm%bt < tm%nbatch
  if (more) then
    sync all
    n = tm%iters
    call system_clock(tm%c0)
  end if
end subroutine timing_next

! The result line, on image 1: t holds the batches' times (seconds).
subroutine report(kernel, t, iters, bad)
  character(*), intent(in) :: kernel
  real(8), intent(inout) :: t(:)
  integer, intent(in) :: iters, bad
  integer :: nb
  nb = size(t)
  if (this_image() /= 1) return
  t = t * 1d6 / iters
  call sort(t)
  write (*, '(a,1x,a,1x,i0,1x,i0,3(1x,f14.3),1x,i0)') 'prk', kernel, num_images(), iters * nb, &
    t(1), t((nb + 1) / 2), t(nb), bad
end subroutine report

! 1 unless got is within the relative tolerance of want.
integer function off(got, want)
  real(8), intent(in) :: got, want
  off = 1
  if (abs(got - want) <= tol * abs(want)) off = 0
end function off

! The balanced block partition of n over np: part p (0-based) starts at
! first (0-based) and holds width elements.
subroutine block(n, np, p, first, width)
  integer, intent(in) :: n, np, p
  integer, intent(out) :: first, width
  first = p * (n / np) + min(p, mod(n, np))
  width = n / np
  if (p < mod(n, np)) width = width + 1
end subroutine block

! a = a + b + scalar * c, on explicit-shape arrays (see tiles_add).
subroutine triad(l, a, b, c, scalar)
  integer, intent(in) :: l
  real(8), intent(inout) :: a(l)
  real(8), intent(in) :: b(l), c(l), scalar
  a = a + b + scalar * c
end subroutine triad

subroutine nstream(seconds)
  real(8), intent(in) :: seconds
  type(timing) :: tm
  integer :: nn
  logical :: more
  integer, parameter :: l = 2**21
  real(8), parameter :: scalar = 3
  real(8), allocatable :: a(:), b(:), c(:)
  real(8) :: asum
  integer :: k, bad

  allocate(a(l), b(l), c(l))
  a = 0; b = 2; c = 2
  do
    call timing_next(tm, seconds, nn, more)
    if (.not. more) exit
    call iterate(nn)
  end do
  k = 3 + tm%iters * tm%nbatch
  asum = sum(abs(a))
  call co_sum(asum)
  bad = off(asum, dble(num_images()) * l * (2 + scalar * 2) * k)
  call report('nstream', tm%t, tm%iters, bad)
  deallocate(a, b, c)

contains

  subroutine iterate(nn)
    integer, intent(in) :: nn
    integer :: it
    do it = 1, nn
      call triad(l, a, b, c, scalar)
    end do
  end subroutine iterate

end subroutine nstream

subroutine stencil(seconds)
  real(8), intent(in) :: seconds
  type(timing) :: tm
  integer :: nn
  logical :: more
  integer, parameter :: n = 1000, r = 2
  real(8), allocatable :: in(:,:)[:], out(:,:)
  real(8) :: w(r), norm
  integer :: me, np, js, wd, wmax, wlo, jlo, jhi, i, j, k, bad, dummy
  integer, allocatable :: nbr(:)

  me = this_image(); np = num_images()
  if (n / np < r) error stop 'caf_bench prk stencil: fewer than 2 grid columns per image (n = 1000)'
  call block(n, np, me - 1, js, wd)
  call block(n, np, 0, dummy, wmax)
  wlo = 0
  if (me > 1) call block(n, np, me - 2, dummy, wlo)
  nbr = [integer ::]
  if (me > 1) nbr = [nbr, me - 1]
  if (me < np) nbr = [nbr, me + 1]
  do k = 1, r
    w(k) = 1d0 / (2 * k * r)
  end do
  ! Local column j (1..wd) is global column js + j - 1; the halos are the
  ! columns 1-r..0 and wd+1..wd+r.
  allocate(in(0:n - 1, 1 - r:wmax + r)[*], out(0:n - 1, wmax))
  in = 0; out = 0
  do j = 1, wd
    do i = 0, n - 1
      in(i, j) = i + (js + j - 1)
    end do
  end do
  jlo = max(1, r - js + 1)
  jhi = min(wd, n - 1 - r - js + 1)
  do
    call timing_next(tm, seconds, nn, more)
    if (.not. more) exit
    call iterate(nn)
  end do
  k = 3 + tm%iters * tm%nbatch
  norm = 0
  if (jlo <= jhi) norm = sum(abs(out(r:n - 1 - r, jlo:jhi)))
  call co_sum(norm)
  norm = norm / (dble(n - 2 * r) * (n - 2 * r))
  bad = off(norm, 2d0 * k)
  call report('stencil', tm%t, tm%iters, bad)
  deallocate(in, out)

contains

  subroutine iterate(nn)
    integer, intent(in) :: nn
    integer :: it, jj, kk
    do it = 1, nn
      if (np > 1) then
        sync images (nbr)
        if (me > 1) in(:, wlo + 1:wlo + r)[me - 1] = in(:, 1:r)
        if (me < np) in(:, 1 - r:0)[me + 1] = in(:, wd - r + 1:wd)
        sync images (nbr)
      end if
      do jj = jlo, jhi
        do kk = 1, r
          out(r:n - 1 - r, jj) = out(r:n - 1 - r, jj) + w(kk) * (in(r:n - 1 - r, jj + kk) - in(r:n - 1 - r, jj - kk) &
            + in(r + kk:n - 1 - r + kk, jj) - in(r - kk:n - 1 - r - kk, jj))
        end do
      end do
      in(:, 1:wd) = in(:, 1:wd) + 1
    end do
  end subroutine iterate

end subroutine stencil

! b(s + c, r) += work(r, c) for the cb x cb block, in tiles.  Explicit-shape
! arguments: the loops see plain contiguous arrays (as C's do), not the
! host's allocatables through their descriptors.
subroutine tiles_add(order, cb, s, tile, b, work)
  integer, intent(in) :: order, cb, s, tile
  real(8), intent(inout) :: b(order, cb)
  real(8), intent(in) :: work(cb, cb)
  integer :: ii, jj, r, c
  do jj = 1, cb, tile
    do ii = 1, cb, tile
      do r = jj, min(jj + tile - 1, cb)
        do c = ii, min(ii + tile - 1, cb)
          b(s + c, r) = b(s + c, r) + work(r, c)
        end do
      end do
    end do
  end do
end subroutine tiles_add

subroutine transpose_kernel(seconds)
  real(8), intent(in) :: seconds
  type(timing) :: tm
  integer :: nn
  logical :: more
  integer, parameter :: order = 1024, tile = 32
  real(8), allocatable :: a(:,:)[:], b(:,:), work(:,:)
  real(8) :: err, kk
  integer :: me, np, cb, lo, hi, i, j, k, bad

  me = this_image(); np = num_images()
  if (mod(order, np) /= 0) error stop 'caf_bench prk transpose: the order 1024 is not divisible by the number of images'
  cb = order / np
  lo = (me - 1) * cb + 1; hi = me * cb        ! my columns, 1-based global
  allocate(a(order, cb)[*], b(order, cb), work(cb, cb))
  do j = 1, cb
    do i = 1, order
      a(i, j) = dble(lo + j - 2) * order + (i - 1)
    end do
  end do
  b = 0
  do
    call timing_next(tm, seconds, nn, more)
    if (.not. more) exit
    call iterate(nn)
  end do
  k = 3 + tm%iters * tm%nbatch
  kk = k
  err = 0
  do j = 1, cb
    do i = 1, order
      ! B(i,j) against K*A0(j,i) + K(K-1)/2, A0(j,i) = i*N + j (0-based)
      err = err + abs(b(i, j) - (kk * (dble(i - 1) * order + (lo + j - 2)) + kk * (kk - 1) / 2))
    end do
  end do
  call co_sum(err)
  bad = 0
  if (.not. (err < tol)) bad = 1
  call report('transpose', tm%t, tm%iters, bad)
  deallocate(a, b, work)

contains

  subroutine iterate(nn)
    integer, intent(in) :: nn
    integer :: it, q, src, s
    do it = 1, nn
      do q = 0, np - 1
        src = mod(me - 1 + q, np) + 1
        if (q == 0) then
          work(:, :) = a(lo:hi, :)
        else
          work(:, :) = a(lo:hi, :)[src]
        end if
        ! work(r, c) = A(lo+r-1, column c of src): B(row of src's column c,
        ! my column r) gets it.
        s = (src - 1) * cb
        call tiles_add(order, cb, s, tile, b, work)
      end do
      sync all
      a = a + 1
      sync all
    end do
  end subroutine iterate

end subroutine transpose_kernel

subroutine p2p(seconds)
  use, intrinsic :: iso_fortran_env, only: event_type
  real(8), intent(in) :: seconds
  type(timing) :: tm
  integer :: nn
  logical :: more
  integer, parameter :: m = 1000, n = 1000
  real(8), allocatable :: v(:,:)[:]
  type(event_type), allocatable :: ev(:)[:]    ! ev(1): from the left, ev(2): the corner
  integer :: me, np, is, wd, wmax, ilo, i, j, k, bad, dummy

  me = this_image(); np = num_images()
  if (m / np < 2) error stop 'caf_bench prk p2p: fewer than 2 grid points per image along i (m = 1000)'
  call block(m, np, me - 1, is, wd)
  call block(m, np, 0, dummy, wmax)
  ! Local i (1..wd) is global is + i - 1; local 0 is the halo (is - 1).
  allocate(v(0:wmax, 0:n - 1)[*], ev(2)[*])
  v = 0
  do i = 0, wd
    v(i, 0) = is + i - 1
  end do
  if (me == 1) then
    v(0, 0) = 0
    do j = 0, n - 1
      v(1, j) = j
    end do
  end if
  ilo = 1
  if (me == 1) ilo = 2
  do
    call timing_next(tm, seconds, nn, more)
    if (.not. more) exit
    call iterate(nn)
  end do
  k = 3 + tm%iters * tm%nbatch
  bad = 0
  if (me == np) bad = off(v(wd, n - 1), dble(k) * (m + n - 2))
  call co_sum(bad)
  call report('p2p', tm%t, tm%iters, bad)
  sync all
  deallocate(v, ev)

contains

  subroutine iterate(nn)
    integer, intent(in) :: nn
    integer :: it, ii, jj
    do it = 1, nn
      do jj = 1, n - 1
        if (me > 1) event wait (ev(1))
        do ii = ilo, wd
          v(ii, jj) = v(ii - 1, jj) + v(ii, jj - 1) - v(ii - 1, jj - 1)
        end do
        if (me < np) then
          v(0, jj)[me + 1] = v(wd, jj)
          event post (ev(1)[me + 1])
        end if
      end do
      if (np == 1) then
        v(1, 0) = -v(wd, n - 1)
      else if (me == np) then
        v(1, 0)[1] = -v(wd, n - 1)
        event post (ev(2)[1])
      else if (me == 1) then
        event wait (ev(2))
      end if
    end do
  end subroutine iterate

end subroutine p2p

end module caf_bench_prk
