! caf_util: what the caf suite's coarray programs share (caf_bench.f90,
! caf_prk.f90).
module caf_bench_util
  implicit none
contains

subroutine sort(x)
  real(8), intent(inout) :: x(:)
  integer :: i, j
  real(8) :: t
  do i = 2, size(x)
    t = x(i); j = i - 1
    do while (j >= 1)
      if (x(j) <= t) exit
      x(j + 1) = x(j); j = j - 1
    end do
    x(j + 1) = t
  end do
end subroutine sort

end module caf_bench_util
