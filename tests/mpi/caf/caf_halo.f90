! caf_halo.f90 -- a halo exchange of a derived-type coarray with an
! allocatable component (OpenCoarrays attaches it to its dynamic window),
! ghosts fetched and sent in turn, run on the host MPI alone and through
! liborma-mpi.
program caf_halo
  implicit none
  type field
     real, allocatable :: u(:)
  end type field
  type(field) :: f[*]
  integer, parameter :: n = 16
  integer :: me, np, i, step, left, right
  me = this_image()
  np = num_images()
  allocate(f%u(0:n + 1))
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
  if (me == 1) print '(a,i0,a)', 'caf_halo: ', np, ' images: OK'
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
