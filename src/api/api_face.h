/* api_face.h -- the one internal header through which a face built on
 * orma's core (liborma-mpi) reaches below the public API: window creation
 * over a team of its own (api_team.h), the fast paths it tries before its
 * checked path (rma_comm.h, rma_acc.h), the net transport's window hooks
 * (xport_net.h), datatypes (dtype_type.h), the job and the others it
 * shares the node with (boot_job.h, boot_peer.h), settings,
 * messages and random tokens.  The wire of the net transport over the host
 * MPI (net_am.h) is built with the face, per MPI, and included beside this.
 * tests/layers/layers.sh holds faces to it. */
#ifndef ORMA_API_FACE_H
#define ORMA_API_FACE_H

#include "api_race.h"
#include "api_team.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "dtype_type.h"
#include "rma_acc.h"
#include "rma_comm.h"
#include "xport_net.h"
#include "rma_win.h"
#include "util_config.h"
#include "util_log.h"
#include "util_random.h"
#include "util_rlock.h"
#include "util_status.h"

#endif
