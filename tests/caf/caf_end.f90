! caf_end: the ways a coarray program ends, one per case (argument 1), for
! caf_end.sh to check the job's exit status, its messages and what it left.
program caf_end
  implicit none
  type holder
    integer, allocatable :: v(:)
  end type
  integer :: a(4)[*]
  type(holder) :: h[*]
  integer, allocatable :: x(:)[:], y(:)
  integer :: me, np, i, others(64)
  character(len=32) :: what

  call get_command_argument(1, what)
  me = this_image(); np = num_images()
  a = me
  sync all
  select case (trim(what))
  case ('stop3')          ! every image, STOP 3
    stop 3
  case ('stopquiet')      ! STOP 4, QUIET=.true.
    stop 4, quiet=.true.
  case ('stopstr')        ! STOP 'bye': status 0
    stop 'bye'
  case ('errorstop')      ! the last image ends everyone; the others wait in SYNC ALL
    if (me == np) error stop 7
    sync all
    print *, 'not reached'
  case ('errorstopstr')
    if (me == 1) error stop 'broken'
    sync all
  case ('badimage')       ! an image number out of range, no STAT=
    if (me == 1) a(1)[np + 1] = 5
    sync all
  case ('early')          ! image 1 stops at once, the others after work among themselves
    if (me == 1) stop
    a(2)[merge(2, me + 1, me == np)] = me
    others(1:np - 1) = [(i, i = 2, np)]   ! (a constructor in the statement leaks in gfortran 12)
    if (np > 1) sync images(others(1:np - 1))
  case ('syncstopped')    ! a sync with an image that stopped, no STAT=: error termination
    if (me == 1) stop
    sync images(1)
  case ('unallocated')    ! another image's component that it never allocated, no STAT=
    if (me == 1) a(1) = h[np]%v(1)
    sync all
  case ('compbounds')     ! a subscript past another image's (smaller) component
    allocate(h%v(2 + me))
    sync all
    if (me == np) h[1]%v(2 + np) = 1
    sync all
  case ('getbounds')      ! a section of an allocatable coarray past its bounds, into an
    allocate(x(4)[*], y(4)) ! allocatable (gfortran makes that a reference chain)
    x = me
    sync all
    if (me == 1) y = x(3:6)[np]
    sync all
    print *, y(1)
  case ('normal')
    a(1)[merge(1, me + 1, me == np)] = -me
    sync all
    if (a(1) /= -merge(np, me - 1, me == 1)) error stop 2
  case default
    error stop 99
  end select
end program caf_end
