! caf_team: teams at 1..4 images -- odd images form team 1, even ones team
! 2.  Inside CHANGE TEAM, image numbers, THIS_IMAGE, NUM_IMAGES, SYNC ALL,
! SYNC IMAGES, the collectives and coarrays allocated there are the team's;
! a coarray of the initial team is reached by team image numbers; after
! END TEAM everything is the initial team's again.  Values are checked
! against image numbers.
program caf_team
  use, intrinsic :: iso_fortran_env, only: team_type
  use caf_check
  implicit none
  type(team_type) :: t
  integer :: x[*], me, np, tn, tme, tnp, i, s, expect
  integer, allocatable :: y(:)[:]

  me = this_image(); np = num_images()
  tn = 2 - mod(me, 2)                 ! 1 for odd images, 2 for even
  x = 0
  call check(team_number() == -1, 'team_number of the initial team')
  form team(tn, t)
  call check(team_number(t) == tn, 'team_number of the formed team')
  sync all

  change team(t)
    tme = this_image(); tnp = num_images()
    call check(team_number() == tn, 'team_number inside CHANGE TEAM')
    call check(tme == (me + 1) / 2, 'this_image inside the team')
    call check(tnp == merge((np + 1) / 2, np / 2, tn == 1), 'num_images inside the team')
    ! Team image 1's x (world image tn) gets every member's world number,
    ! one at a time around a ring of SYNC IMAGES.
    if (tme > 1) sync images(tme - 1)
    x[1] = x[1] + me
    if (tme < tnp) sync images(tme + 1)
    sync all
    s = 0
    do i = 1, tnp
      s = s + (2 * i - 2 + tn)        ! world numbers of the members
    end do
    if (tme == 1) call check(x == s, 'team image 1 reached by team numbers')
    ! A collective over the team.
    i = me
    call co_sum(i)
    call check(i == s, 'co_sum over the team')
    i = me
    call co_broadcast(i, tnp)
    call check(i == 2 * tnp - 2 + tn, 'co_broadcast from the team''s last image')
    ! A coarray allocated in the team: a window over its images.
    allocate(y(3)[*])
    y = -1
    sync all
    y(2)[merge(1, tme + 1, tme == tnp)] = 100 * tn + tme
    sync team(t)
    expect = 100 * tn + merge(tnp, tme - 1, tme == 1)
    call check(y(2) == expect .and. y(1) == -1 .and. y(3) == -1, 'coarray allocated in the team')
    sync all
    deallocate(y)
    ! One left allocated: END TEAM deallocates it.
    allocate(y(2)[*])
  end team
  call check(.not. allocated(y), 'a coarray allocated in the team is deallocated by END TEAM')

  call check(this_image() == me .and. num_images() == np, 'the initial team again after END TEAM')
  call check(team_number() == -1, 'team_number after END TEAM')
  sync all
  ! World image numbers again: image np's x, from image 1.
  if (me == 1) x[np] = -5
  sync all
  if (me == np) call check(x == -5, 'world image numbers after END TEAM')
  call finish('caf_team')
end program caf_team
