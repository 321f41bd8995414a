/* report_cmd.h -- `orma-bench report RESULTS... --out DIR`: results of
 * earlier runs (--json, --csv) as a Markdown report with PNG plots.  A
 * plain command, no job: the report is a Python program
 * (bench/report/orma_report.py) that orma-bench runs with python3. */
#ifndef BENCH_REPORT_CMD_H
#define BENCH_REPORT_CMD_H

/* Exit status when the report's Python environment is missing (python3,
 * or for the plots its venv and pip): the report's own status for the
 * latter, so that tests can skip on it. */
#define BENCH_REPORT_NOENV 3

/* argv[0] is orma-bench, argv[1] "report".  Replaces the process with the
 * report program; returns an exit status only when that cannot start. */
int bench_report_command(int argc, char **argv);

#endif
