! caf_check: what every coarray test shares -- a check that counts and
! names failures (the first ten per image), and the end that turns them
! into ERROR STOP 1 or the test's "ok" line.
module caf_check
  implicit none
  integer :: errs = 0

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      errs = errs + 1
      if (errs <= 10) print '(a,i0,2a)', 'image ', this_image(), ': FAIL ', what
    end if
  end subroutine check

  ! Every image calls it: an image with failures ends the job (ERROR STOP
  ! 1); image 1 prints "<name>: N images ok" when it had none (no SYNC
  ! here: a test may end with images already stopped).
  subroutine finish(name)
    character(*), intent(in) :: name
    if (errs > 0) then
      print '(a,i0,a,i0,a)', 'image ', this_image(), ': ', errs, ' errors'
      error stop 1
    end if
    if (this_image() == 1) print '(2a,i0,a)', name, ': ', num_images(), ' images ok'
  end subroutine finish

end module caf_check
