! mpi_race_f.F90 -- mpi_race.c's fence_puts and origin_changed in Fortran,
! through the host MPI's mpi module or (F08 defined) its mpi_f08 module,
! for orma's race checker (ORMA_CHECK=race) through liborma-mpi:
!   mpi_race_f orma CASE
! The sites reported must be this program's calls (subroutine bug_CASE, at
! the lines marked "race: CASE"), not liborma-mpi's Fortran entry points
! nor the host's mpi_f08 wrappers between.  mpi_race.sh checks the report.
#ifdef F08
#define USE_MPI use mpi_f08
#define WIN_T type(MPI_Win)
#else
#define USE_MPI use mpi
#define WIN_T integer
#endif

subroutine bug_fence_puts(rank, sz)
  USE_MPI
  implicit none
  integer, intent(in) :: rank, sz
  integer :: base(8), src(4), ierr, t
  WIN_T :: win
  integer(kind=MPI_ADDRESS_KIND) :: wsize
  base = 0
  src = [1, 2, 3, 4]
  t = sz - 1
  wsize = 32
  call MPI_Win_create(base, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  if (rank == 0) call MPI_Put(src, 4, MPI_INTEGER, t, 0_MPI_ADDRESS_KIND, 4, MPI_INTEGER, win, ierr) ! race: fence_puts
  if (rank == 1) call MPI_Put(src, 2, MPI_INTEGER, t, 2_MPI_ADDRESS_KIND, 2, MPI_INTEGER, win, ierr) ! race: fence_puts
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_free(win, ierr)
end subroutine bug_fence_puts

subroutine bug_origin_changed(rank, sz)
  USE_MPI
  implicit none
  integer, intent(in) :: rank, sz
  integer :: base(8), src(4), ierr, t
  WIN_T :: win
  integer(kind=MPI_ADDRESS_KIND) :: wsize
  base = 0
  src = [7, 8, 9, 10]
  t = sz - 1
  wsize = 32
  call MPI_Win_create(base, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  ! (one-line ifs: gfortran's line table gives the calls of an if block after
  ! its first assignment the line of the if)
  if (rank == 0) call MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win, ierr)
  if (rank == 0) call MPI_Put(src, 4, MPI_INTEGER, t, 0_MPI_ADDRESS_KIND, 4, MPI_INTEGER, win, ierr) ! race: origin_changed
  if (rank == 0) src(3) = 99
  if (rank == 0) call MPI_Win_flush(t, win, ierr) ! race: origin_changed
  if (rank == 0) call MPI_Win_unlock(t, win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Win_free(win, ierr)
end subroutine bug_origin_changed

program mpi_race_f
  USE_MPI
  implicit none
  integer :: ierr, rank, sz
  character(len=32) :: which
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, sz, ierr)
  call get_command_argument(2, which)
  select case (trim(which))
  case ("fence_puts")
    call bug_fence_puts(rank, sz)
  case ("origin_changed")
    call bug_origin_changed(rank, sz)
  case default
    write (0, '(a, a)') "mpi_race_f: no case ", trim(which)
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end select
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program mpi_race_f
