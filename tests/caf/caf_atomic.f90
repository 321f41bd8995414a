! caf_atomic: atomic subroutines, LOCK/UNLOCK, CRITICAL and events at 1..4
! images, each checked by totals that lost updates or broken mutual
! exclusion would change; then the errors LOCK and UNLOCK report with
! STAT= (STAT_LOCKED, STAT_UNLOCKED, STAT_LOCKED_OTHER_IMAGE).
program caf_atomic
  use, intrinsic :: iso_fortran_env
  use caf_check
  implicit none
  integer, parameter :: rounds = 200
  integer(atomic_int_kind) :: cnt[*], bits[*], old, cmp
  logical(atomic_logical_kind) :: flag[*]
  logical :: lv
  type(lock_type) :: lk[*], lks(3)[*]
  type(event_type) :: ev[*], evs(2)[*]
  integer :: total[*], hits(3)[*]
  integer :: me, np, i, st, k
  logical :: got

  me = this_image(); np = num_images()
  cnt = 0; bits = 0; total = 0; hits = 0
  call atomic_define(flag, .false.)
  sync all

  ! ---- atomics, all images on image 1 ----
  do i = 1, rounds
    call atomic_add(cnt[1], 1)
    call atomic_fetch_add(cnt[1], 2, old)
    call check(old >= 0 .and. old < 3 * rounds * np, 'fetch_add old value in range')
  end do
  call atomic_or(bits[1], ishft(1, me - 1))
  sync all
  if (me == 1) then
    call atomic_ref(old, cnt)
    call check(old == 3 * rounds * np, 'atomic_add / fetch_add total')
    call check(bits == 2**np - 1, 'atomic_or bits')
  end if
  sync all
  ! fetch_and / fetch_xor on image np
  if (me == 1) call atomic_define(bits[np], 15)
  sync all
  if (me == 1) then
    call atomic_fetch_and(bits[np], 6, old)
    call check(old == 15, 'fetch_and old')
    call atomic_fetch_xor(bits[np], 3, old)
    call check(old == 6, 'fetch_xor old')
    call atomic_ref(old, bits[np])
    call check(old == 5, 'and/xor result')
  end if
  ! compare-and-swap: every image takes a ticket from image 1's counter
  sync all
  if (me == 1) cnt = 0
  sync all
  do i = 1, rounds
    do
      call atomic_ref(cmp, cnt[1])
      call atomic_cas(cnt[1], old, cmp, cmp + 1)
      if (old == cmp) exit
    end do
  end do
  sync all
  if (me == 1) call check(cnt == rounds * np, 'atomic_cas tickets')
  call atomic_define(flag[np], .true.)
  sync all
  call atomic_ref(lv, flag[np])
  call check(lv, 'logical atomic_define / atomic_ref')

  ! ---- LOCK: a plain read-modify-write of image 1's total ----
  do i = 1, rounds
    lock(lk[1])
    total[1] = total[1] + 1
    unlock(lk[1])
  end do
  ! an array of locks on the last image, each guarding its own counter
  do i = 1, rounds / 4
    k = mod(i, 3) + 1
    lock(lks(k)[np])
    hits(k)[np] = hits(k)[np] + 1
    unlock(lks(k)[np])
  end do
  sync all
  if (me == 1) call check(total == rounds * np, 'LOCK total')
  if (me == np) call check(all(hits == [(np * count([(mod(i, 3) + 1 == k, i = 1, rounds / 4)]), k = 1, 3)]), &
                           'LOCK array totals')
  sync all
  ! ---- CRITICAL ----
  do i = 1, rounds
    critical
      total[1] = total[1] + 1
    end critical
  end do
  sync all
  if (me == 1) call check(total == 2 * rounds * np, 'CRITICAL total')

  ! ---- LOCK errors and ACQUIRED_LOCK ----
  lock(lk, stat=st)
  call check(st == 0, 'lock own')
  lock(lk, stat=st)
  call check(st == stat_locked, 'lock twice: STAT_LOCKED')
  unlock(lk, stat=st)
  call check(st == 0, 'unlock own')
  unlock(lk, stat=st)
  call check(st == stat_unlocked, 'unlock unlocked: STAT_UNLOCKED')
  sync all
  if (np >= 2) then
    if (me == 2) lock(lk[1])
    sync all
    if (me == 1) then
      lock(lk, acquired_lock=got)
      call check(.not. got, 'acquired_lock false while image 2 holds it')
      unlock(lk, stat=st)
      call check(st == stat_locked_other_image, 'unlock of a lock another image holds')
    end if
    sync all
    if (me == 2) unlock(lk[1])
    sync all
    if (me == 1) then
      lock(lk, acquired_lock=got)
      call check(got, 'acquired_lock true once free')
      unlock(lk)
    end if
  end if
  sync all

  ! ---- events: a ring, and UNTIL_COUNT ----
  do i = 1, 20
    event post(ev[merge(1, me + 1, me == np)])
    event wait(ev)
  end do
  call event_query(ev, k)
  call check(k == 0, 'event count back to 0')
  sync all
  if (me /= 1 .or. np == 1) then
    event post(evs(2)[1])
    event post(evs(2)[1])
  end if
  if (me == 1) then
    ! (gfortran 12 drops the computation of an expression here: a variable)
    k = 2 * max(np - 1, 1)
    event wait(evs(2), until_count=k)
    call event_query(evs(2), k)
    call check(k == 0, 'until_count consumed')
    call event_query(evs(1), k)
    call check(k == 0, 'other element untouched')
  end if

  call finish('caf_atomic')
end program caf_atomic
