! mpi_fortran.f90 -- the one-sided chapter called from Fortran (use mpi):
! windows made with MPI_Win_create on a Fortran array, MPI_Win_allocate
! and MPI_Win_allocate_shared with an address-sized base pointer, and
! MPI_Alloc_mem memory; puts (from MPI_BOTTOM too), gets, accumulates and
! atomics under fence, post-start-complete-wait, lock and lock_all; the
! predefined attributes, a keyval with a Fortran delete callback, the
! name, a Fortran error handler and MPI_ERRORS_RETURN with the error class
! of an out-of-range put.  Every element of every window is checked at
! the end: written where a test wrote, its background everywhere else.
! Run like the C programs: argument "host" (the host MPI alone) or "orma"
! (liborma-mpi preloaded or linked), checked against what serves the run.
module mt
  use mpi
  use, intrinsic :: iso_c_binding
  implicit none
  integer, parameter :: N = 64
  integer, parameter :: AK = MPI_ADDRESS_KIND
  integer :: rank, nranks, isz
  ! the host MPI alone, and which one (for its departures from the standard)
  logical :: mpich_host, open_mpi_host
  ! what the callbacks saw
  integer :: errh_calls = 0, errh_code = 0, errh_win = 0
  integer :: del_calls = 0, del_win = 0, del_keyval = 0
  integer(kind=AK) :: del_val = 0, del_extra = 0

  interface
    function dlsym(handle, name) bind(C, name="dlsym")
      import :: c_ptr, c_char
      type(c_ptr), value :: handle
      character(kind=c_char), dimension(*) :: name
      type(c_ptr) :: dlsym
    end function dlsym
  end interface

contains

  subroutine fail(msg)
    character(len=*), intent(in) :: msg
    integer :: ierr
    write (0, '("rank ", i0, ": ", a)') rank, msg
    flush (0)
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
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
    integer, intent(in) :: at
    integer(kind=8), intent(in) :: got, want
    character(len=160) :: s
    if (got /= want) then
      write (s, '(a, " at ", i0, ": got ", i0, ", expected ", i0)') what, at, got, want
      call fail(trim(s))
    end if
  end subroutine expect

  ! Backgrounds: distinct per rank and index, negative (data are positive).
  integer function bg(r, i)
    integer, intent(in) :: r, i
    bg = -1000000 * (r + 1) - i
  end function bg

  integer function data(r, round, i)
    integer, intent(in) :: r, round, i
    data = 100000 * (r + 1) + 1000 * round + i
  end function data

  subroutine on_error(win, code)
    integer :: win, code
    errh_calls = errh_calls + 1
    errh_code = code
    errh_win = win
  end subroutine on_error

  subroutine on_delete(win, keyval, val, extra, ierr)
    integer :: win, keyval, ierr
    integer(kind=AK) :: val, extra
    del_calls = del_calls + 1
    del_win = win
    del_keyval = keyval
    del_val = val
    del_extra = extra
    ierr = MPI_SUCCESS
  end subroutine on_delete

  subroutine start()
    character(len=16) :: arg
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
    logical :: want, have
    integer :: ierr, vlen
    call MPI_Init(ierr)
    call ok(ierr, "MPI_Init")
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    call MPI_Type_size(MPI_INTEGER, isz, ierr)
    call get_command_argument(1, arg)
    want = trim(arg) == "orma"
    have = c_associated(dlsym(c_null_ptr, "orma_init" // c_null_char))
    if (want .neqv. have) call fail("this run should be served by liborma-mpi if and only if its argument is orma")
    call MPI_Get_library_version(version, vlen, ierr)
    mpich_host = .not. want .and. index(version(1:vlen), "MPICH") > 0
    open_mpi_host = .not. want .and. index(version(1:vlen), "Open MPI") > 0
  end subroutine start

  ! The right neighbour's window after the tests of win_create.
  integer function want_create(r, i)
    integer, intent(in) :: r, i
    integer :: left, s, k
    left = mod(r + nranks - 1, nranks)
    want_create = bg(r, i)
    if (i >= 8 .and. i < 32) then            ! fence puts from the left
      want_create = data(left, (i - 8) / 8, mod(i - 8, 8))
    else if (i >= 40 .and. i < 44) then      ! everyone's sums
      s = 0
      do k = 0, nranks - 1
        s = s + 10 * (k + 1) + (i - 40)
      end do
      want_create = bg(r, i) + s
    else if (i == 48 .or. i == 49) then      ! lock and put from the left
      want_create = data(left, 7, i)
    else if (i == 50 .or. i == 51) then      ! rput from the left
      want_create = data(left, 8, i)
    else if (i == 52) then                   ! pscw put from the left
      want_create = data(left, 9, i)
    end if
  end function want_create

  ! MPI_Win_create over a Fortran array: every synchronization, the
  ! attributes, the name, a keyval, error handlers, and the final contents.
  subroutine test_create()
    integer, volatile, target :: mem(0:N - 1)
    integer :: src(8), got(0:5), acc(4), one, fres, cres, cas, cmp, two(2)
    integer :: win, ierr, i, round, right, left, cls, rlen, keyval, errh, req
    integer :: grp, exposure, access, wins, flavor, freed, okcount
    integer(kind=AK) :: val, addr
    logical :: flag
    character(len=MPI_MAX_OBJECT_NAME) :: name

    right = mod(rank + 1, nranks)
    left = mod(rank + nranks - 1, nranks)
    do i = 0, N - 1
      mem(i) = bg(rank, i)
    end do
    call MPI_Win_create(mem, int(N * isz, AK), isz, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call ok(ierr, "MPI_Win_create")
    if (win == MPI_WIN_NULL) call fail("MPI_Win_create gave MPI_WIN_NULL")

    ! fence: three rounds of 8 puts to the right, 4 gets from the left
    call MPI_Win_fence(MPI_MODE_NOPRECEDE, win, ierr)
    call ok(ierr, "MPI_Win_fence")
    do round = 0, 2
      do i = 1, 8
        src(i) = data(rank, round, i - 1)
      end do
      got = -7
      call MPI_Put(src(1), 8, MPI_INTEGER, right, int(8 + 8 * round, AK), 8, MPI_INTEGER, win, ierr)
      call ok(ierr, "MPI_Put")
      call MPI_Get(got(1), 4, MPI_INTEGER, left, 0_AK, 4, MPI_INTEGER, win, ierr)
      call ok(ierr, "MPI_Get")
      call MPI_Win_fence(0, win, ierr)
      call ok(ierr, "MPI_Win_fence")
      do i = 1, 4
        call expect("MPI_Get", i, int(got(i), 8), int(bg(left, i - 1), 8))
      end do
      call expect("MPI_Get: the element before", 0, int(got(0), 8), -7_8)
      call expect("MPI_Get: the element after", 5, int(got(5), 8), -7_8)
    end do

    ! accumulate: every rank adds to elements 40..43 of every rank
    do i = 1, 4
      acc(i) = 10 * (rank + 1) + (i - 1)
    end do
    do i = 0, nranks - 1
      call MPI_Accumulate(acc(1), 4, MPI_INTEGER, i, 40_AK, 4, MPI_INTEGER, MPI_SUM, win, ierr)
      call ok(ierr, "MPI_Accumulate")
    end do
    call MPI_Win_fence(MPI_MODE_NOSUCCEED, win, ierr)
    call ok(ierr, "MPI_Win_fence")

    ! lock: a put of 2 to the right
    two = [data(rank, 7, 48), data(rank, 7, 49)]
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win, ierr)
    call ok(ierr, "MPI_Win_lock")
    call MPI_Put(two(1), 2, MPI_INTEGER, right, 48_AK, 2, MPI_INTEGER, win, ierr)
    call ok(ierr, "MPI_Put")
    call MPI_Win_unlock(right, win, ierr)
    call ok(ierr, "MPI_Win_unlock")

    ! lock_all: an rput completed by MPI_Wait, fetch_and_op and
    ! compare_and_swap on rank 0's elements 60 and 61
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_lock_all(0, win, ierr)
    call ok(ierr, "MPI_Win_lock_all")
    src(1:2) = [data(rank, 8, 50), data(rank, 8, 51)]
    call MPI_Rput(src(1), 2, MPI_INTEGER, right, 50_AK, 2, MPI_INTEGER, win, req, ierr)
    call ok(ierr, "MPI_Rput")
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call ok(ierr, "MPI_Wait")
    one = 1
    call MPI_Fetch_and_op(one, fres, MPI_INTEGER, 0, 60_AK, MPI_SUM, win, ierr)
    call ok(ierr, "MPI_Fetch_and_op")
    cas = 7000 + rank
    cmp = bg(0, 61)
    call MPI_Compare_and_swap(cas, cmp, cres, MPI_INTEGER, 0, 61_AK, win, ierr)
    call ok(ierr, "MPI_Compare_and_swap")
    call MPI_Win_flush_all(win, ierr)
    call ok(ierr, "MPI_Win_flush_all")
    if (fres < bg(0, 60) .or. fres >= bg(0, 60) + nranks) &
      call expect("MPI_Fetch_and_op: the old value", 60, int(fres, 8), int(bg(0, 60), 8))
    call MPI_Win_unlock_all(win, ierr)
    call ok(ierr, "MPI_Win_unlock_all")
    okcount = 0
    if (cres == bg(0, 61)) okcount = 1
    call MPI_Allreduce(MPI_IN_PLACE, okcount, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call expect("MPI_Compare_and_swap: ranks that swapped", 61, int(okcount, 8), 1_8)

    ! post-start-complete-wait: expose to the left, access the right
    call MPI_Comm_group(MPI_COMM_WORLD, grp, ierr)
    call MPI_Group_incl(grp, 1, [left], exposure, ierr)
    call MPI_Group_incl(grp, 1, [right], access, ierr)
    call MPI_Win_post(exposure, 0, win, ierr)
    call ok(ierr, "MPI_Win_post")
    call MPI_Win_start(access, 0, win, ierr)
    call ok(ierr, "MPI_Win_start")
    one = data(rank, 9, 52)
    call MPI_Put(one, 1, MPI_INTEGER, right, 52_AK, 1, MPI_INTEGER, win, ierr)
    call ok(ierr, "MPI_Put")
    call MPI_Win_complete(win, ierr)
    call ok(ierr, "MPI_Win_complete")
    call MPI_Win_wait(win, ierr)
    call ok(ierr, "MPI_Win_wait")
    call MPI_Win_get_group(win, wins, ierr)
    call ok(ierr, "MPI_Win_get_group")
    call MPI_Group_compare(wins, grp, i, ierr)
    if (i /= MPI_IDENT) call fail("MPI_Win_get_group: not MPI_COMM_WORLD's group")
    call MPI_Group_free(wins, ierr)
    call MPI_Group_free(exposure, ierr)
    call MPI_Group_free(access, ierr)
    call MPI_Group_free(grp, ierr)

    ! predefined attributes, by value in Fortran
    call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag, ierr)
    call ok(ierr, "MPI_Win_get_attr")
    if (.not. flag) call fail("no MPI_WIN_SIZE")
    call expect("MPI_WIN_SIZE", 0, int(val, 8), int(N * isz, 8))
    call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
    if (.not. flag) call fail("no MPI_WIN_DISP_UNIT")
    call expect("MPI_WIN_DISP_UNIT", 0, int(val, 8), int(isz, 8))
    call MPI_Win_get_attr(win, MPI_WIN_BASE, val, flag, ierr)
    call MPI_Get_address(mem, addr, ierr)
    if (.not. flag) call fail("no MPI_WIN_BASE")
    call expect("MPI_WIN_BASE", 0, int(val, 8), int(addr, 8))
    call MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, val, flag, ierr)
    flavor = int(val)
    if (.not. flag) call fail("no MPI_WIN_CREATE_FLAVOR")
    call expect("MPI_WIN_CREATE_FLAVOR", 0, int(flavor, 8), int(MPI_WIN_FLAVOR_CREATE, 8))

    ! a keyval whose delete callback is Fortran
    call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, on_delete, keyval, 42_AK, ierr)
    call ok(ierr, "MPI_Win_create_keyval")
    call MPI_Win_set_attr(win, keyval, 1234_AK, ierr)
    call ok(ierr, "MPI_Win_set_attr")
    val = 0
    call MPI_Win_get_attr(win, keyval, val, flag, ierr)
    call ok(ierr, "MPI_Win_get_attr")
    if (.not. flag) call fail("MPI_Win_get_attr: the keyval's attribute is not set")
    call expect("MPI_Win_get_attr: the keyval's attribute", 0, int(val, 8), 1234_8)
    call MPI_Win_delete_attr(win, keyval, ierr)
    call ok(ierr, "MPI_Win_delete_attr")
    call expect("delete callbacks after MPI_Win_delete_attr", 0, int(del_calls, 8), 1_8)
    ! Open MPI 4.1 passes Fortran delete callbacks of windows the
    ! value of another object than the window
    if (.not. open_mpi_host) call expect("delete callback: window", 0, int(del_win, 8), int(win, 8))
    call expect("delete callback: keyval", 0, int(del_keyval, 8), int(keyval, 8))
    call expect("delete callback: value", 0, int(del_val, 8), 1234_8)
    call expect("delete callback: extra state", 0, int(del_extra, 8), 42_8)
    call MPI_Win_get_attr(win, keyval, val, flag, ierr)
    if (flag) call fail("MPI_Win_get_attr: the attribute is still there after MPI_Win_delete_attr")
    call MPI_Win_set_attr(win, keyval, 5678_AK, ierr) ! deleted by MPI_Win_free

    ! the name
    call MPI_Win_set_name(win, "fortran window", ierr)
    call ok(ierr, "MPI_Win_set_name")
    name = "x"
    call MPI_Win_get_name(win, name, rlen, ierr)
    call ok(ierr, "MPI_Win_get_name")
    if (name /= "fortran window" .or. rlen /= len("fortran window")) &
      call fail("MPI_Win_get_name: got '" // trim(name) // "'")

    ! error handlers: a Fortran one, then MPI_ERRORS_RETURN; puts beyond
    ! the window (not with MPICH alone, which does not detect them and
    ! writes past the window)
    call MPI_Win_create_errhandler(on_error, errh, ierr)
    call ok(ierr, "MPI_Win_create_errhandler")
    call MPI_Win_set_errhandler(win, errh, ierr)
    call ok(ierr, "MPI_Win_set_errhandler")
    call MPI_Errhandler_free(errh, ierr)
    call ok(ierr, "MPI_Errhandler_free")
    call MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win, ierr)
    two = [99, 98]
    if (.not. mpich_host) then
      call MPI_Put(two(1), 1, MPI_INTEGER, right, int(N, AK), 1, MPI_INTEGER, win, ierr)
      call expect("Fortran error handler calls", 0, int(errh_calls, 8), 1_8)
      call MPI_Error_class(errh_code, cls, i)
      call expect("Fortran error handler: class (MPI_ERR_RMA_RANGE)", 0, int(cls, 8), int(MPI_ERR_RMA_RANGE, 8))
      call expect("Fortran error handler: window", 0, int(errh_win, 8), int(win, 8))
    end if
    call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
    call ok(ierr, "MPI_Win_set_errhandler")
    call MPI_Win_get_errhandler(win, errh, ierr)
    call ok(ierr, "MPI_Win_get_errhandler")
    if (errh /= MPI_ERRORS_RETURN) call fail("MPI_Win_get_errhandler: not MPI_ERRORS_RETURN")
    if (.not. mpich_host) then
      call MPI_Put(two(1), 2, MPI_INTEGER, right, int(N - 1, AK), 2, MPI_INTEGER, win, ierr)
      if (ierr == MPI_SUCCESS) call fail("a put beyond the window succeeded")
      call MPI_Error_class(ierr, cls, i)
      call expect("a put beyond the window: class (MPI_ERR_RMA_RANGE)", 0, int(cls, 8), int(MPI_ERR_RMA_RANGE, 8))
      call expect("Fortran error handler calls", 0, int(errh_calls, 8), 1_8)
    end if
    call MPI_Win_unlock(right, win, ierr)
    call ok(ierr, "MPI_Win_unlock")

    ! every element, read in an epoch on this rank's own window
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win, ierr)
    do i = 0, N - 1
      if (rank == 0 .and. i == 60) then
        call expect("MPI_Fetch_and_op: the sum", i, int(mem(i), 8), int(bg(0, 60) + nranks, 8))
      else if (rank == 0 .and. i == 61) then
        if (mem(i) < 7000 .or. mem(i) >= 7000 + nranks) &
          call expect("MPI_Compare_and_swap: the swapped value", i, int(mem(i), 8), 7000_8)
      else
        call expect("win_create window", i, int(mem(i), 8), int(want_create(rank, i), 8))
      end if
    end do
    call MPI_Win_unlock(rank, win, ierr)

    freed = win
    call MPI_Win_free(win, ierr)
    call ok(ierr, "MPI_Win_free")
    if (win /= MPI_WIN_NULL) call fail("MPI_Win_free did not set the handle to MPI_WIN_NULL")
    call expect("delete callbacks after MPI_Win_free", 0, int(del_calls, 8), 2_8)
    if (.not. open_mpi_host) &
      call expect("delete callback at MPI_Win_free: window", 0, int(del_win, 8), int(freed, 8))
    call expect("delete callback at MPI_Win_free: value", 0, int(del_val, 8), 5678_8)
    call MPI_Win_free_keyval(keyval, ierr)
    call ok(ierr, "MPI_Win_free_keyval")
  end subroutine test_create

  ! MPI_Win_allocate: the memory comes back as an address-sized integer.
  ! Puts from MPI_BOTTOM with struct types holding absolute addresses: two
  ! types made one after the other, the first freed before the second is
  ! made (so that a type's handle may be reused: liborma-mpi must forget
  ! the first type at MPI_Type_free).
  subroutine test_allocate()
    integer, pointer :: mem(:)
    integer(kind=AK) :: baseptr, val, disp(1)
    integer :: win, ierr, i, right, left, src(4), src2(3), abstype
    logical :: flag
    right = mod(rank + 1, nranks)
    left = mod(rank + nranks - 1, nranks)
    call MPI_Win_allocate(int(N * isz, AK), isz, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
    call ok(ierr, "MPI_Win_allocate")
    call c_f_pointer(transfer(baseptr, c_null_ptr), mem, [N])
    do i = 1, N
      mem(i) = bg(rank, i - 1)
    end do
    call MPI_Win_get_attr(win, MPI_WIN_BASE, val, flag, ierr)
    if (.not. flag) call fail("no MPI_WIN_BASE")
    call expect("MPI_WIN_BASE of an allocated window", 0, int(val, 8), int(baseptr, 8))
    do i = 1, 4
      src(i) = data(rank, 1, i)
    end do
    do i = 1, 3
      src2(i) = data(rank, 2, i)
    end do
    call MPI_Win_fence(0, win, ierr)
    call MPI_Get_address(src, disp(1), ierr)
    call MPI_Type_create_struct(1, [4], disp, [MPI_INTEGER], abstype, ierr)
    call MPI_Type_commit(abstype, ierr)
    call MPI_Put(MPI_BOTTOM, 1, abstype, right, 16_AK, 4, MPI_INTEGER, win, ierr)
    call ok(ierr, "MPI_Put from MPI_BOTTOM")
    call MPI_Win_fence(0, win, ierr)
    call MPI_Type_free(abstype, ierr)
    call ok(ierr, "MPI_Type_free")
    if (abstype /= MPI_DATATYPE_NULL) call fail("MPI_Type_free did not set the handle to MPI_DATATYPE_NULL")
    call MPI_Get_address(src2, disp(1), ierr)
    call MPI_Type_create_struct(1, [3], disp, [MPI_INTEGER], abstype, ierr)
    call MPI_Type_commit(abstype, ierr)
    call MPI_Put(MPI_BOTTOM, 1, abstype, right, 32_AK, 3, MPI_INTEGER, win, ierr)
    call ok(ierr, "MPI_Put from MPI_BOTTOM")
    call MPI_Win_fence(0, win, ierr)
    call MPI_Type_free(abstype, ierr)
    do i = 1, N
      if (i - 1 >= 16 .and. i - 1 < 20) then
        call expect("win_allocate window", i - 1, int(mem(i), 8), int(data(left, 1, i - 16), 8))
      else if (i - 1 >= 32 .and. i - 1 < 35) then
        call expect("win_allocate window", i - 1, int(mem(i), 8), int(data(left, 2, i - 32), 8))
      else
        call expect("win_allocate window", i - 1, int(mem(i), 8), int(bg(rank, i - 1), 8))
      end if
    end do
    call MPI_Win_free(win, ierr)
    call ok(ierr, "MPI_Win_free")
  end subroutine test_allocate

  ! MPI_Win_allocate_shared with MPI_Win_shared_query: the right
  ! neighbour's memory read with loads; a get_accumulate from it.
  subroutine test_shared()
    integer, pointer :: mem(:), theirs(:)
    integer(kind=AK) :: baseptr, qbase, qsize
    integer :: win, ierr, i, right, qunit, add(2), old(2)
    right = mod(rank + 1, nranks)
    call MPI_Win_allocate_shared(int(N * isz, AK), isz, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
    call ok(ierr, "MPI_Win_allocate_shared")
    call c_f_pointer(transfer(baseptr, c_null_ptr), mem, [N])
    do i = 1, N
      mem(i) = bg(rank, i - 1)
    end do
    call MPI_Win_shared_query(win, right, qsize, qunit, qbase, ierr)
    call ok(ierr, "MPI_Win_shared_query")
    call expect("MPI_Win_shared_query: size", 0, int(qsize, 8), int(N * isz, 8))
    call expect("MPI_Win_shared_query: disp_unit", 0, int(qunit, 8), int(isz, 8))
    call c_f_pointer(transfer(qbase, c_null_ptr), theirs, [N])
    call MPI_Win_lock_all(0, win, ierr)
    call MPI_Win_sync(win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_sync(win, ierr)
    do i = 1, N
      call expect("a load from the right's shared memory", i - 1, int(theirs(i), 8), int(bg(right, i - 1), 8))
    end do
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    add = [3, 4]
    call MPI_Get_accumulate(add(1), 2, MPI_INTEGER, old(1), 2, MPI_INTEGER, right, 5_AK, 2, MPI_INTEGER, &
                            MPI_SUM, win, ierr)
    call ok(ierr, "MPI_Get_accumulate")
    call MPI_Win_flush(right, win, ierr)
    call ok(ierr, "MPI_Win_flush")
    call expect("MPI_Get_accumulate: old value", 5, int(old(1), 8), int(bg(right, 5), 8))
    call expect("MPI_Get_accumulate: old value", 6, int(old(2), 8), int(bg(right, 6), 8))
    call MPI_Win_unlock_all(win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win, ierr)
    do i = 1, N
      if (i - 1 == 5 .or. i - 1 == 6) then
        call expect("win_allocate_shared window", i - 1, int(mem(i), 8), int(bg(rank, i - 1) + i - 3, 8))
      else
        call expect("win_allocate_shared window", i - 1, int(mem(i), 8), int(bg(rank, i - 1), 8))
      end if
    end do
    call MPI_Win_unlock(rank, win, ierr)
    call MPI_Win_free(win, ierr)
    call ok(ierr, "MPI_Win_free")
  end subroutine test_shared

  ! MPI_Alloc_mem memory under MPI_Win_create; MPI_Free_mem after.
  subroutine test_alloc_mem()
    integer, pointer :: mem(:)
    integer(kind=AK) :: baseptr
    integer :: win, ierr, i, left, right, v
    right = mod(rank + 1, nranks)
    left = mod(rank + nranks - 1, nranks)
    call MPI_Alloc_mem(int(N * isz, AK), MPI_INFO_NULL, baseptr, ierr)
    call ok(ierr, "MPI_Alloc_mem")
    call c_f_pointer(transfer(baseptr, c_null_ptr), mem, [N])
    do i = 1, N
      mem(i) = bg(rank, i - 1)
    end do
    call MPI_Win_create(mem, int(N * isz, AK), isz, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call ok(ierr, "MPI_Win_create")
    call MPI_Win_fence(0, win, ierr)
    v = data(rank, 2, 0)
    call MPI_Put(v, 1, MPI_INTEGER, right, int(N - 1, AK), 1, MPI_INTEGER, win, ierr)
    call ok(ierr, "MPI_Put")
    call MPI_Win_fence(0, win, ierr)
    do i = 1, N
      if (i == N) then
        call expect("alloc_mem window", i - 1, int(mem(i), 8), int(data(left, 2, 0), 8))
      else
        call expect("alloc_mem window", i - 1, int(mem(i), 8), int(bg(rank, i - 1), 8))
      end if
    end do
    call MPI_Win_free(win, ierr)
    call ok(ierr, "MPI_Win_free")
    call MPI_Free_mem(mem, ierr)
    call ok(ierr, "MPI_Free_mem")
  end subroutine test_alloc_mem

end module mt

program mpi_fortran
  use mt
  implicit none
  integer :: ierr
  call start()
  call test_create()
  call test_allocate()
  call test_shared()
  call test_alloc_mem()
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', "ok"
  call MPI_Finalize(ierr)
end program mpi_fortran
