! mpi_fortran08.f90 -- a few one-sided calls through the mpi_f08 module
! (handles are derived types, ierror optional): a window on a Fortran
! array, fence epochs with put, get and accumulate, lock with
! fetch_and_op, the size and displacement unit attributes, the name,
! MPI_ERRORS_RETURN and the class of a put beyond the window, and a
! window from MPI_Win_allocate with a TYPE(C_PTR) base.  Every element of
! the windows is checked.  Arguments as mpi_fortran.f90's.
program mpi_fortran08
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  integer, parameter :: N = 32
  integer, parameter :: AK = MPI_ADDRESS_KIND
  integer, volatile, target :: mem(0:N - 1)
  integer, pointer :: amem(:)
  integer :: rank, nranks, isz, right, left, i, ierr, cls, rlen, src(4), got(0:3), acc(2), one, old
  integer(kind=AK) :: val
  logical :: flag, want, have, mpich_host, open_mpi_host
  character(len=16) :: arg
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  type(MPI_Win) :: win
  type(c_ptr) :: base

  interface
    function dlsym(handle, sym) bind(C, name="dlsym")
      import :: c_ptr, c_char
      type(c_ptr), value :: handle
      character(kind=c_char), dimension(*) :: sym
      type(c_ptr) :: dlsym
    end function dlsym
  end interface

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call MPI_Type_size(MPI_INTEGER, isz)
  call get_command_argument(1, arg)
  want = trim(arg) == "orma"
  have = c_associated(dlsym(c_null_ptr, "orma_init" // c_null_char))
  if (want .neqv. have) call fail("this run should be served by liborma-mpi if and only if its argument is orma")
  call MPI_Get_library_version(version, rlen)
  mpich_host = .not. want .and. index(version(1:rlen), "MPICH") > 0
  open_mpi_host = .not. want .and. index(version(1:rlen), "Open MPI") > 0
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)

  do i = 0, N - 1
    mem(i) = bg(rank, i)
  end do
  call MPI_Win_create(mem, int(N * isz, AK), isz, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call ok(ierr, "MPI_Win_create")
  call MPI_Win_fence(0, win)
  src = [(1000 * (rank + 1) + i, i = 1, 4)]
  call MPI_Put(src, 4, MPI_INTEGER, right, 4_AK, 4, MPI_INTEGER, win, ierr)
  call ok(ierr, "MPI_Put")
  got = -7
  call MPI_Get(got(1:2), 2, MPI_INTEGER, left, 0_AK, 2, MPI_INTEGER, win, ierr)
  call ok(ierr, "MPI_Get")
  call MPI_Win_fence(0, win)
  call expect("MPI_Get", 1, got(1), bg(left, 0))
  call expect("MPI_Get", 2, got(2), bg(left, 1))
  call expect("MPI_Get: the element before", 0, got(0), -7)
  call expect("MPI_Get: the element after", 3, got(3), -7)
  acc = [rank + 1, 10 * (rank + 1)]
  do i = 0, nranks - 1
    call MPI_Accumulate(acc, 2, MPI_INTEGER, i, 10_AK, 2, MPI_INTEGER, MPI_SUM, win)
  end do
  call MPI_Win_fence(0, win)

  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)
  one = 1
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, 20_AK, MPI_SUM, win)
  call MPI_Win_unlock(0, win)
  if (old < bg(0, 20) .or. old >= bg(0, 20) + nranks) call expect("MPI_Fetch_and_op: the old value", 20, old, bg(0, 20))

  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag)
  if (.not. flag) call fail("no MPI_WIN_SIZE")
  call expect("MPI_WIN_SIZE", 0, int(val), N * isz)
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag)
  if (.not. flag) call fail("no MPI_WIN_DISP_UNIT")
  call expect("MPI_WIN_DISP_UNIT", 0, int(val), isz)
  ! Open MPI 4.1 alone mangles window names through mpi_f08 (it gives
  ! back the first letter, then blanks and slashes)
  call MPI_Win_set_name(win, "f08 window")
  call MPI_Win_get_name(win, name, rlen)
  if (.not. open_mpi_host .and. (name /= "f08 window" .or. rlen /= 10)) &
    call fail("MPI_Win_get_name: got '" // trim(name) // "'")

  ! a put beyond the window (not with MPICH alone, which does not detect it)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN)
  if (.not. mpich_host) then
    call MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win)
    call MPI_Put(src, 1, MPI_INTEGER, right, int(N, AK), 1, MPI_INTEGER, win, ierr)
    if (ierr == MPI_SUCCESS) call fail("a put beyond the window succeeded")
    call MPI_Error_class(ierr, cls)
    call expect("a put beyond the window: class (MPI_ERR_RMA_RANGE)", 0, cls, MPI_ERR_RMA_RANGE)
    call MPI_Win_unlock(right, win)
  end if

  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win)
  do i = 0, N - 1
    if (i >= 4 .and. i < 8) then
      call expect("win_create window", i, mem(i), 1000 * (left + 1) + i - 3)
    else if (i == 10 .or. i == 11) then
      call expect("win_create window", i, mem(i), bg(rank, i) + (1 + 9 * (i - 10)) * nranks * (nranks + 1) / 2)
    else if (i == 20 .and. rank == 0) then
      call expect("win_create window", i, mem(i), bg(rank, i) + nranks)
    else
      call expect("win_create window", i, mem(i), bg(rank, i))
    end if
  end do
  call MPI_Win_unlock(rank, win)
  call MPI_Win_free(win, ierr)
  call ok(ierr, "MPI_Win_free")
  if (win /= MPI_WIN_NULL) call fail("MPI_Win_free did not set the handle to MPI_WIN_NULL")

  ! MPI_Win_allocate with a TYPE(C_PTR) base
  call MPI_Win_allocate(int(N * isz, AK), isz, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  call ok(ierr, "MPI_Win_allocate")
  call c_f_pointer(base, amem, [N])
  amem = [(bg(rank, i), i = 0, N - 1)]
  call MPI_Win_fence(0, win)
  call MPI_Put(src, 2, MPI_INTEGER, right, int(N - 2, AK), 2, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  do i = 0, N - 1
    if (i >= N - 2) then
      call expect("win_allocate window", i, amem(i + 1), 1000 * (left + 1) + i - (N - 3))
    else
      call expect("win_allocate window", i, amem(i + 1), bg(rank, i))
    end if
  end do
  call MPI_Win_free(win)

  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) print '(a)', "ok"
  call MPI_Finalize()

contains

  subroutine fail(msg)
    character(len=*), intent(in) :: msg
    write (0, '("rank ", i0, ": ", a)') rank, msg
    flush (0)
    call MPI_Abort(MPI_COMM_WORLD, 1)
    stop 1
  end subroutine fail

  subroutine ok(ierr, what)
    integer, intent(in) :: ierr
    character(len=*), intent(in) :: what
    character(len=16) :: s
    if (ierr /= MPI_SUCCESS) then
      write (s, '(i0)') ierr
      call fail(what // ": error " // trim(s))
    end if
  end subroutine ok

  subroutine expect(what, at, got, want)
    character(len=*), intent(in) :: what
    integer, intent(in) :: at, got, want
    character(len=160) :: s
    if (got /= want) then
      write (s, '(a, " at ", i0, ": got ", i0, ", expected ", i0)') what, at, got, want
      call fail(trim(s))
    end if
  end subroutine expect

  integer function bg(r, i)
    integer, intent(in) :: r, i
    bg = -1000000 * (r + 1) - i
  end function bg

end program mpi_fortran08
