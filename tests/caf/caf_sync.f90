! caf_sync: SYNC IMAGES with lists, with * and with itself, SYNC ALL, SYNC
! MEMORY, at 1..4 images; each phase's data are checked after the sync
! that orders them.  Then the errors a program can make, with STAT= and
! ERRMSG=: an image number out of range, an image named twice, and a sync
! with an image that has stopped (STAT_STOPPED_IMAGE).
program caf_sync
  use, intrinsic :: iso_fortran_env, only: stat_stopped_image
  use caf_check
  implicit none
  integer :: x[*], hist(64)[*]
  integer :: me, np, i, round, st
  character(len=120) :: msg

  me = this_image(); np = num_images()
  hist = 0

  ! A chain: image i waits for i-1 and then writes into i+1, many rounds.
  do round = 1, 50
    if (me > 1) sync images(me - 1)
    x[merge(1, me + 1, me == np)] = round * 100 + me
    if (me < np) sync images(me + 1)
  end do
  sync all
  call check(x == 50 * 100 + merge(np, me - 1, me == 1), 'chain value')

  ! Everyone writes its number into everyone's hist, then SYNC IMAGES(*).
  do i = 1, np
    hist(me)[i] = me * 3
  end do
  sync images(*)
  do i = 1, np
    call check(hist(i) == i * 3, 'sync images(*) data')
  end do
  sync all

  ! Pairs (1,2), (3,4): a list with itself in it, and sync memory.
  if (np >= 2) then
    if (me <= 2 * (np / 2)) then
      i = merge(me + 1, me - 1, mod(me, 2) == 1)
      x[i] = -me
      sync memory
      sync images([me, i])
      call check(x == -i, 'pair sync')
    end if
  end if
  sync all

  ! Errors with STAT= and ERRMSG=.
  msg = ''
  sync images(np + 1, stat=st, errmsg=msg)
  call check(st /= 0, 'image out of range gives a stat')
  call check(index(msg, 'not in 1..') > 0, 'image out of range says so')
  if (np >= 2) then
    sync images([1, 1], stat=st)
    call check(st /= 0 .or. me == 1, 'image named twice gives a stat')
  end if
  sync all

  ! Image np stops; the others sync with it and get STAT_STOPPED_IMAGE.
  if (np >= 2) then
    if (me == np) then
      if (errs > 0) error stop 1
      stop
    end if
    sync images(np, stat=st)
    call check(st == stat_stopped_image, 'sync with a stopped image')
  end if

  call finish('caf_sync')

end program caf_sync
