! caf_status: IMAGE_STATUS, FAILED_IMAGES, STOPPED_IMAGES and FAIL IMAGE at
! 1..4 images: the last image fails, the one before it stops (from 3
! images), the others see both through SYNC IMAGES' STAT= and the queries,
! and go on to end normally; RANDOM_INIT gives images
! different or equal sequences as asked.
program caf_status
  use, intrinsic :: iso_fortran_env, only: stat_failed_image, stat_stopped_image
  use caf_check
  implicit none
  real :: x[*], y
  integer :: me, np, i, st, running(64)
  integer, allocatable :: f(:), s(:)

  me = this_image(); np = num_images()
  do i = 1, np
    call check(image_status(i) == 0, 'image_status of a running image')
  end do
  f = failed_images()
  s = stopped_images()
  call check(size(f) == 0 .and. size(s) == 0, 'no failed or stopped images yet')

  ! RANDOM_INIT: distinct per image, or the same on every image.
  call random_init(.true., .true.)
  call random_number(x)
  sync all
  if (np >= 2 .and. me == 1) then
    y = x[2]
    call check(y /= x, 'random_init image_distinct: different numbers')
  end if
  sync all
  call random_init(.true., .false.)
  call random_number(x)
  sync all
  if (np >= 2 .and. me == 1) then
    y = x[2]
    call check(y == x, 'random_init not image_distinct: the same numbers')
  end if
  sync all

  if (np >= 2) then
    if (me == np) then
      deallocate(f, s)
      fail image
    end if
    if (np >= 3 .and. me == np - 1) then
      if (errs > 0) error stop 1
      deallocate(f, s)
      stop
    end if
    sync images(np, stat=st)
    call check(st == stat_failed_image, 'sync with a failed image: STAT_FAILED_IMAGE')
    call check(image_status(np) == stat_failed_image, 'image_status of a failed image')
    f = failed_images()
    call check(size(f) == 1, 'failed_images has one image')
    if (size(f) == 1) call check(f(1) == np, 'failed_images names it')
    if (np >= 3) then
      sync images(np - 1, stat=st)
      call check(st == stat_stopped_image, 'sync with a stopped image: STAT_STOPPED_IMAGE')
      call check(image_status(np - 1) == stat_stopped_image, 'image_status of a stopped image')
      s = stopped_images()
      call check(size(s) == 1, 'stopped_images has one image')
      if (size(s) == 1) call check(s(1) == np - 1, 'stopped_images names it')
    end if
    ! (ALLOCATE of a coarray now would fail with a STAT, but gfortran 12
    ! follows it with a SYNC ALL that has none: error termination.)
    ! The images still running wait for each other before they end: an
    ! image that has ended normally counts as stopped.
    running(1:np - 2) = [(i, i = 1, np - 2)]
    if (np >= 3) sync images(running(1:np - 2))
  end if
  deallocate(f, s)
  call finish('caf_status')
end program caf_status
