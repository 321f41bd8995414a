#include "rma_race.h"
#include "rma_runtime.h"
#include "rma_atomic.h"
#include "rma_epoch.h"
#include "rma_heap.h"
#include "rma_win.h"
#include "rma_world.h"
#include "boot_job.h"
#include "shm_cma.h"
#include "util_config.h"

int rma_thread_level;

int rma_runtime_start(void)
{
    util_config_load(); /* an ORMA_TRANSPORT other than auto or net: a warning, and auto */
    rma_epoch_init();
    rma_atomic_init();
    shm_cma_allow_peers();
    int status = rma_world_start();
    if (!status)
        status = boot_job_start();
    return rma_world_agree(status);
}

int rma_runtime_stop(void)
{
    /* Nobody may access our windows or heap once we unmap them (over the
     * net transport, nobody still needs us to handle their operations). */
    rma_world_barrier();
    rma_win_foreach(rma_win_release);
    rma_heap_release_all();
    rma_race_site_release();
    boot_job_finish();
    rma_world_finish();
    return ORMA_SUCCESS;
}
