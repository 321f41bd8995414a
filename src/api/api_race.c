/* api_race.c -- a face's call site for ORMA_CHECK=race (api_race.h). */
#include "api_race.h"

void api_race_site(const void *ra)
{
    rma_race_face = ra;
}
