! caf_bench: the coarray programs of orma-bench's caf suite (bench/caf/
! caf_suite.c runs them; they run alone too):
!
!   caf_bench himeno SIZE MODE [SECONDS]
!   caf_bench pp OP [SECONDS]          OP: put, get, put1, strided, packed
!   caf_bench prk KERNEL [SECONDS]     caf_prk.f90
!
! pp: seed 002's coarray ping-pong between images 1 and 2.  put: image 1
! assigns n bytes to image 2's coarray and syncs with it, image 2 answers
! the same way; a line per size with the half round trip (microseconds,
! min, median, max over batches).  get: image 1 reads n bytes of image 2's
! coarray, the time per read.  put1: image 1 assigns n bytes to image 2's
! coarray and executes SYNC MEMORY, the time per assignment (one way, the
! counterpart of orma_put + flush).  strided and packed: the put ping-pong
! with n bytes of real(8) that are every eighth element on both sides (a
! row of a column-major array (8, :)): strided assigns the section itself,
! y(1, 1:m)[other] = z(1, 1:m); packed is what a programmer writes by hand
! instead: pack the row of z into a buffer, put the buffer, SYNC IMAGES, and
! the target unpacks it into its row of y.  Every transfer's bytes are
! checked, and the rows beside the target row must not change.
!
! himeno: the Himeno benchmark (the 19-point Jacobi iteration of Poisson's
! equation, as its definition gives it: arrays a(4), b(3), c(3), bnd, wrk1,
! wrk2 and p; 34 floating-point operations per point) written with
! coarrays, the grid split across images along j.  Each iteration exchanges
! the p planes at the j boundaries with the neighbours, in one of two ways
! (seed 002's):
!   narrow  the strided sections themselves: p(:, j, :)[neighbour] = ...
!   wide    through contiguous buffers: pack, put the buffer, unpack
! then sums the residual with CO_SUM.
!
!   SIZE: XS, S, M;  MODE: narrow, wide
!
! Image 1 prints one line: size, mode, images, iterations, the median
! MFLOPS over batches of iterations (min, max), and the residual, which
! must not depend on the mode or the number of images (the check the test
! and orma-bench make).
module caf_bench_himeno
  use caf_bench_util
  implicit none
contains

subroutine himeno(size_arg, mode, seconds)
  character(*), intent(in) :: size_arg, mode
  real(8), intent(in) :: seconds
  integer :: imax, jmax, kmax, jl, jn, me, np, it, nbatch, batch, iters, i
  real(4), allocatable :: p(:,:,:)[:], a(:,:,:,:), b(:,:,:,:), c(:,:,:,:), bnd(:,:,:), wrk1(:,:,:), wrk2(:,:,:)
  real(4), allocatable :: sbuf(:,:)[:], rbuf_lo(:,:)[:], rbuf_hi(:,:)[:]
  real(4) :: gosa
  real(8) :: flop, t0, t1
  real(8), allocatable :: rate(:)
  integer(8) :: c0, c1, crate
  real(4), parameter :: omega = 0.8

  me = this_image(); np = num_images()
  select case (trim(size_arg))
  case ('XS'); imax = 33; jmax = 33; kmax = 65
  case ('S'); imax = 65; jmax = 65; kmax = 129
  case ('M'); imax = 129; jmax = 129; kmax = 257
  case default
    error stop 'himeno: SIZE is XS, S or M'
  end select
  if (trim(mode) /= 'narrow' .and. trim(mode) /= 'wide') error stop 'himeno: MODE is narrow or wide'
  ! Interior j points 2..jmax-1 split into np slabs; local j runs 0..jn+1.
  jl = (jmax - 2) / np
  if (jl < 1) error stop 'himeno: more images than j planes'
  jn = jl
  if (me == np) jn = (jmax - 2) - jl * (np - 1)
  allocate(p(imax, 0:jl + (jmax - 2 - jl * np) + 1, kmax)[*])
  allocate(sbuf(imax, kmax)[*], rbuf_lo(imax, kmax)[*], rbuf_hi(imax, kmax)[*])
  allocate(a(imax, 0:jn + 1, kmax, 4), b(imax, 0:jn + 1, kmax, 3), c(imax, 0:jn + 1, kmax, 3))
  allocate(bnd(imax, 0:jn + 1, kmax), wrk1(imax, 0:jn + 1, kmax), wrk2(imax, 0:jn + 1, kmax))
  call init_matrices()
  sync all

  ! Iterations per batch: about a tenth of a second, decided on image 1.
  flop = 34d0 * (imax - 2) * (jmax - 2) * (kmax - 2)
  call system_clock(c0, crate)
  call jacobi(3, gosa)
  call system_clock(c1)
  t0 = max(dble(c1 - c0) / crate / 3, 1d-6)
  iters = max(1, int(0.1d0 / t0))
  call co_max(iters)
  nbatch = max(3, int(seconds / (iters * t0)))
  call co_max(nbatch)
  allocate(rate(nbatch))
  call init_matrices()
  sync all
  do batch = 1, nbatch
    call system_clock(c0)
    call jacobi(iters, gosa)
    call system_clock(c1)
    t1 = dble(c1 - c0) / crate
    call co_max(t1)
    rate(batch) = flop * iters / t1 / 1d6
  end do
  ! The residual after a fixed number of iterations from the start.
  call init_matrices()
  sync all
  call jacobi(20, gosa)
  if (me == 1) then
    call sort(rate)
    write (*, '(a,1x,a,1x,a,1x,i0,1x,i0,3(1x,f10.1),1x,es14.7)') 'himeno', trim(size_arg), trim(mode), np, &
      iters * nbatch, rate((nbatch + 1) / 2), rate(1), rate(nbatch), gosa
  end if
  deallocate(p, sbuf, rbuf_lo, rbuf_hi)

contains

  subroutine init_matrices()
    integer :: k, j, jg
    p = 0
    do k = 1, kmax
      do j = 0, jn + 1
        jg = (me - 1) * jl + j + 1      ! global j (1..jmax) of local j
        if (jg >= 1 .and. jg <= jmax) p(:, j, k) = real((k - 1) * (k - 1), 4) / real((kmax - 1) * (kmax - 1), 4)
      end do
    end do
    a(:,:,:,1:3) = 1; a(:,:,:,4) = 1.0 / 6.0
    b = 0; c = 1
    bnd = 1; wrk1 = 0; wrk2 = 0
  end subroutine init_matrices

  subroutine jacobi(nn, gosa)
    integer, intent(in) :: nn
    real(4), intent(out) :: gosa
    integer :: n
    real(4) :: wgosa
    do n = 1, nn
      ! The local part of p, passed as a plain array: the sweep's loops see
      ! contiguous explicit-shape arrays and vectorize as C's would.
      call sweep(imax, jn, ubound(p, 2), kmax, a, b, c, bnd, wrk1, wrk2, p, omega, wgosa)
      call exchange()
      call co_sum(wgosa)
      gosa = wgosa
    end do
  end subroutine jacobi

  ! The j planes 1 and jn go to the neighbours' halo planes jn+1 and 0.
  subroutine exchange()
    integer :: up, down
    up = me + 1; down = me - 1
    sync all
    if (trim(mode) == 'narrow') then
      if (up <= np) p(:, 0, :)[up] = p(:, jn, :)
      if (down >= 1) p(:, jl + 1, :)[down] = p(:, 1, :)
      sync all
    else
      if (up <= np) then
        sbuf = p(:, jn, :)
        rbuf_lo(:, :)[up] = sbuf
      end if
      sync all
      if (down >= 1) then
        sbuf = p(:, 1, :)
        rbuf_hi(:, :)[down] = sbuf
      end if
      sync all
      if (down >= 1) p(:, 0, :) = rbuf_lo
      if (up <= np) p(:, jn + 1, :) = rbuf_hi
    end if
  end subroutine exchange


end subroutine himeno

! One Jacobi sweep over the local j planes 1..jn (the global boundary
! planes are not updated), p's halo planes 0 and jn+1 read; its residual
! in wgosa.  p's second dimension runs 0..pj (the coarray has the largest
! image's extent on every image).
subroutine sweep(imax, jn, pj, kmax, a, b, c, bnd, wrk1, wrk2, p, omega, wgosa)
  integer, intent(in) :: imax, jn, pj, kmax
  real(4), intent(in) :: a(imax, 0:jn + 1, kmax, 4), b(imax, 0:jn + 1, kmax, 3), c(imax, 0:jn + 1, kmax, 3)
  real(4), intent(in) :: bnd(imax, 0:jn + 1, kmax), wrk1(imax, 0:jn + 1, kmax)
  real(4), intent(inout) :: wrk2(imax, 0:jn + 1, kmax), p(imax, 0:pj, kmax)
  real(4), intent(in) :: omega
  real(4), intent(out) :: wgosa
  integer :: i, j, k
  real(4) :: s0, ss
  wgosa = 0
  do k = 2, kmax - 1
    do j = 1, jn
      do i = 2, imax - 1
        s0 = a(i,j,k,1) * p(i+1,j,k) + a(i,j,k,2) * p(i,j+1,k) + a(i,j,k,3) * p(i,j,k+1) &
           + b(i,j,k,1) * (p(i+1,j+1,k) - p(i+1,j-1,k) - p(i-1,j+1,k) + p(i-1,j-1,k)) &
           + b(i,j,k,2) * (p(i,j+1,k+1) - p(i,j-1,k+1) - p(i,j+1,k-1) + p(i,j-1,k-1)) &
           + b(i,j,k,3) * (p(i+1,j,k+1) - p(i-1,j,k+1) - p(i+1,j,k-1) + p(i-1,j,k-1)) &
           + c(i,j,k,1) * p(i-1,j,k) + c(i,j,k,2) * p(i,j-1,k) + c(i,j,k,3) * p(i,j,k-1) + wrk1(i,j,k)
        ss = (s0 * a(i,j,k,4) - p(i,j,k)) * bnd(i,j,k)
        wgosa = wgosa + ss * ss
        wrk2(i,j,k) = p(i,j,k) + omega * ss
      end do
    end do
  end do
  p(2:imax-1, 1:jn, 2:kmax-1) = wrk2(2:imax-1, 1:jn, 2:kmax-1)
end subroutine sweep

end module caf_bench_himeno

module caf_bench_pp
  use caf_bench_util
  implicit none
contains

subroutine pp(op, seconds)
  character(*), intent(in) :: op
  real(8), intent(in) :: seconds
  integer, parameter :: maxn = 1048576
  integer, parameter :: nsizes = 8
  integer, parameter :: sizes(nsizes) = [8, 64, 512, 4096, 32768, 131072, 524288, 1048576]
  integer, parameter :: maxm = maxn / 8
  integer(1), allocatable :: x(:)[:]
  integer(1), allocatable :: src(:), dst(:)
  real(8), allocatable :: y(:,:)[:], rb(:)[:], buf(:), z(:,:)
  integer :: m
  integer :: me, np, s, n, k, iters, nb, b, bad
  integer(8) :: c0, c1, crate
  real(8), allocatable :: t(:)
  real(8) :: one

  me = this_image(); np = num_images()
  allocate(x(maxn)[*], src(maxn), dst(maxn))
  x = 0
  if (op == 'strided' .or. op == 'packed') then
    allocate(y(8, maxm)[*], rb(maxm)[*], buf(maxm), z(8, maxm))
    y = -1; rb = 0; z = -2
  end if
  if (np < 2) then
    if (me == 1) write (*, '(a)') '# pp needs 2 images'
    return
  end if
  call system_clock(count_rate=crate)
  bad = 0
  do s = 1, nsizes
    n = sizes(s)
    src(1:n) = int(mod([(k + s + me, k = 1, n)], 127), 1)
    m = n / 8
    if (op == 'get' .and. me == 2) x(1:n) = src(1:n)   ! what image 1 reads
    if (allocated(y)) z(1, 1:m) = [(dble(k + 1000 * s + 100000 * me), k = 1, m)]
    ! Iterations per batch: a few milliseconds, decided on image 1.
    iters = 1
    do
      call round(iters, one)
      call co_max(one)
      if (one > 2d-3 .or. iters >= 1000000) exit
      iters = iters * 4
    end do
    nb = max(5, min(200, int(seconds / nsizes / max(one, 1d-6))))
    call co_max(nb)
    allocate(t(nb))
    do b = 1, nb
      call round(iters, t(b))
    end do
    ! The last transfer's bytes, where they landed.
    sync all
    if ((op == 'put' .or. op == 'put1') .and. me == 2) then
      if (any(x(1:n) /= int(mod([(k + s + 1, k = 1, n)], 127), 1))) bad = bad + 1
    end if
    if (allocated(y)) then
      ! Image 1 got image 2's row and image 2 image 1's; rows 2..8 untouched.
      if (me <= 2) then
        if (any(y(1, 1:m) /= [(dble(k + 1000 * s + 100000 * (3 - me)), k = 1, m)])) bad = bad + 1
      end if
      if (any(y(2:8, :) /= -1)) bad = bad + 1
    end if
    if (op == 'get' .and. me == 1) then
      if (any(dst(1:n) /= int(mod([(k + s + 2, k = 1, n)], 127), 1))) bad = bad + 1
    end if
    call co_sum(bad)
    if (me == 1) then
      call sort(t)
      write (*, '(a,1x,a,1x,i0,1x,i0,3(1x,f12.4),1x,i0)') 'pp', op, n, nb, t(1) * 1d6 / iters, &
        t((nb + 1) / 2) * 1d6 / iters, t(nb) * 1d6 / iters, bad
    end if
    deallocate(t)
  end do
  deallocate(x, src, dst)
  if (allocated(y)) deallocate(y, rb, buf, z)

contains

  ! One batch of iters ping-pongs (put) or reads (get); its time per
  ! operation goes to t: half a round trip, or one read.
  subroutine round(iters, t)
    integer, intent(in) :: iters
    real(8), intent(out) :: t
    integer :: i
    sync all
    call system_clock(c0)
    if (op == 'put') then
      do i = 1, iters
        if (me == 1) then
          x(1:n)[2] = src(1:n)
          sync images(2)
          sync images(2)
        else if (me == 2) then
          sync images(1)
          x(1:n)[1] = src(1:n)
          sync images(1)
        end if
      end do
    else if (op == 'put1') then
      if (me == 1) then
        do i = 1, iters
          x(1:n)[2] = src(1:n)
          sync memory
        end do
      end if
    else if (op == 'strided') then
      do i = 1, iters
        if (me == 1) then
          y(1, 1:m)[2] = z(1, 1:m)
          sync images(2)
          sync images(2)
        else if (me == 2) then
          sync images(1)
          y(1, 1:m)[1] = z(1, 1:m)
          sync images(1)
        end if
      end do
    else if (op == 'packed') then
      do i = 1, iters
        if (me == 1) then
          buf(1:m) = z(1, 1:m)
          rb(1:m)[2] = buf(1:m)
          sync images(2)
          sync images(2)
          y(1, 1:m) = rb(1:m)
        else if (me == 2) then
          sync images(1)
          y(1, 1:m) = rb(1:m)
          buf(1:m) = z(1, 1:m)
          rb(1:m)[1] = buf(1:m)
          sync images(1)
        end if
      end do
    else
      if (me == 1) then
        do i = 1, iters
          dst(1:n) = x(1:n)[2]
        end do
      end if
    end if
    call system_clock(c1)
    t = dble(c1 - c0) / crate
    if (op == 'put' .or. op == 'strided' .or. op == 'packed') t = t / 2
    sync all
  end subroutine round

end subroutine pp


end module caf_bench_pp

program caf_bench
  use caf_bench_himeno
  use caf_bench_pp
  use caf_bench_prk
  implicit none
  character(len=16) :: what, a2, a3, a4
  real(8) :: seconds
  call get_command_argument(1, what)
  call get_command_argument(2, a2)
  call get_command_argument(3, a3)
  call get_command_argument(4, a4)
  seconds = 2
  select case (trim(what))
  case ('himeno')
    if (len_trim(a4) > 0) read (a4, *) seconds
    call himeno(trim(a2), trim(a3), seconds)
  case ('pp')
    if (len_trim(a3) > 0) read (a3, *) seconds
    select case (trim(a2))
    case ('put', 'get', 'put1', 'strided', 'packed')
    case default
      error stop 'caf_bench pp: OP is put, get, put1, strided or packed'
    end select
    call pp(trim(a2), seconds)
  case ('prk')
    if (len_trim(a3) > 0) read (a3, *) seconds
    call prk(trim(a2), seconds)
  case default
    error stop 'usage: caf_bench himeno SIZE MODE [SECONDS] | caf_bench pp OP [SECONDS] | caf_bench prk KERNEL [SECONDS]'
  end select
end program caf_bench
