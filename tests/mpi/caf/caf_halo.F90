! caf_halo.F90 -- a halo exchange of a derived-type coarray, ghosts fetched
! and sent in turn, run on the host MPI alone and through liborma-mpi.
! Its component is allocatable (OpenCoarrays attaches it to its dynamic
! window) or, built with -DPOINTER_COMPONENT, a pointer to ordinary
! (saved) memory, as codes written for OpenCoarrays have: OpenCoarrays
! 2.10 then reaches f[img]%u(i) through its dynamic window at an address
! it never attached.  The standard calls that access erroneous (MPI-4.1
! 12.2.4); MPICH carries it out, Open MPI 4.1 refuses it
! (MPI_ERR_RMA_RANGE), and liborma-mpi carries it out as MPICH does, or
! refuses it with ORMA_CHECK=1, quoting the rule.
program caf_halo
  implicit none
  type field
#ifdef POINTER_COMPONENT
     real, pointer :: u(:) => null()
#else
     real, allocatable :: u(:)
#endif
  end type field
  type(field) :: f[*]
  integer, parameter :: n = 16
#ifdef POINTER_COMPONENT
  real, target, save :: store(0:n + 1)
#endif
  integer :: me, np, i, step, left, right
  me = this_image()
  np = num_images()
#ifdef POINTER_COMPONENT
  f%u => store
#else
  allocate(f%u(0:n + 1))
#endif
  f%u = -1.0
  do i = 1, n
     f%u(i) = real(me * 1000 + i)
  end do
  left = me - 1
  if (left < 1) left = np
  right = me + 1
  if (right > np) right = 1
  sync all
  do step = 1, 3
     if (mod(step, 2) == 1) then ! the ghosts fetched (get), or sent (put)
        f%u(0) = f[left]%u(n)
        f%u(n + 1) = f[right]%u(1)
     else
        f[right]%u(0) = f%u(n)
        f[left]%u(n + 1) = f%u(1)
     end if
     sync all
     call expect('left ghost', f%u(0), real(left * 1000 + n + step - 1))
     call expect('right ghost', f%u(n + 1), real(right * 1000 + 1 + step - 1))
     f%u(1:n) = f%u(1:n) + 1.0
     sync all
  end do
  if (me == 1) print '(a,a,i0,a)', PROGRAM_NAME, ': ', np, ' images: OK'
contains
  subroutine expect(what, got, want)
    character(*), intent(in) :: what
    real, intent(in) :: got, want
    if (got /= want) then
       print '(a,i0,a,a,a,i0,a,f10.1,a,f10.1)', 'image ', me, ': ', what, ' at step ', step, ': got ', got, &
            ', expected ', want
       error stop 1
    end if
  end subroutine expect
end program caf_halo
