! caf_halo_ptr.f90 -- a halo exchange of a derived-type coarray whose
! component is a pointer to ordinary (saved) memory, as codes written for
! OpenCoarrays do: OpenCoarrays 2.10 reaches f[img]%u(i) through its
! dynamic window at an address it never attached.  The standard calls that
! access erroneous (MPI-4.1 12.2.4); MPICH carries it out, Open MPI 4.1
! refuses it (MPI_ERR_RMA_RANGE), and liborma-mpi carries it out as MPICH
! does, or refuses it with ORMA_CHECK=1, quoting the rule.
program caf_halo_ptr
  implicit none
  type field
     real, pointer :: u(:) => null()
  end type field
  type(field) :: f[*]
  integer, parameter :: n = 16
  real, target, save :: store(0:n + 1)
  integer :: me, np, i, step, left, right
  me = this_image()
  np = num_images()
  f%u => store
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
     f%u(0) = f[left]%u(n)
     f%u(n + 1) = f[right]%u(1)
     sync all
     call expect('left ghost', f%u(0), real(left * 1000 + n + step - 1))
     call expect('right ghost', f%u(n + 1), real(right * 1000 + 1 + step - 1))
     f%u(1:n) = f%u(1:n) + 1.0
     sync all
  end do
  if (me == 1) print '(a,i0,a)', 'caf_halo_ptr: ', np, ' images: OK'
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
end program caf_halo_ptr
