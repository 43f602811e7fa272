import os
import sys

import pytest

# tests/naive.py is imported as a plain module by the tests.
sys.path.insert(0, os.path.dirname(__file__))

# The GPU engine's tests run its CUDA kernel in numba's CUDA simulator (there is no GPU here).  On a
# machine with one, LOCALCOUNT_TEST_GPU=device runs them on the device instead.  Set before numba loads.
if os.environ.get("LOCALCOUNT_TEST_GPU") != "device":
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")


#: The methods of ``test_count.py::test_count_equals_reference`` (its parameters' ids).
COUNT_METHODS = ("line-dp+symmetry", "tables+symmetry", "tables, every grid")


def sizes_up_to(cells: int) -> list:
    """Every n x m with n, m >= 1 and at most ``cells`` cells."""
    return [(n, m) for n in range(1, cells + 1) for m in range(1, cells + 1) if n * m <= cells]


#: The committed logs whose check is long (``test_results.py``; the others, one of each engine, stay quick).
COMMITTED_LONG = ("2x20-thin1-tab-s16-sym", "3x13-stats3-d1-rows-sym", "3x13-stats3-d6-tr-sym",
                  "4x10-stats3-d1-rows-sym", "4x10-stats3-d4-tr-sym", "5x8-stats3-d3-tr-sym",
                  "6x6-stats2-d3-rows-sym-yes", "6x6-stats2-d3-tr-sym-yes", "6x7-stats3-d2-rows-sym")  # fmt: skip

#: The sizes of 13 to 16 cells with both sides of at least 2 and the single lines of 13 (``test_count.py``'s
#: sweep; the single lines of 14 to 16 are long for their line solver).
SWEEP_13_16 = [(n, m) for n, m in sizes_up_to(16) if 13 <= n * m <= 16 and (min(n, m) >= 2 or n * m == 13)]
#: The long tests: wider sweeps of what a quick test of the same file checks (more sizes, every kernel variant,
#: every parametrisation of a generated kernel, a Dask cluster's failures), each a test function by its name or
#: one case of it with its parameters' id.  The README's ``python -m pytest`` leaves them out (marker ``long``,
#: ``pyproject.toml``'s addopts) so that a newcomer's first run takes minutes; ``.ci/run`` runs them after it,
#: with the page's real-browser tests (marker ``browser``): ``python -m pytest -m 'long or browser'``.  Every
#: test file keeps quick tests (``tests/test_suite.py``).
LONG = {
    "test_lines.py": {
        "test_table_equals_line_dp[13]",
    },
    "test_web_load.py": {
        "test_the_load_bench_runs_and_answers_every_live_request",
    },
    "test_web_hostile.py": {
        # every field of one request of each kind stays quick; the second request of a kind, and the makers, are long,
        "test_wrong_types_in_every_field_are_a_4xx[solve--1]",
        "test_wrong_types_in_every_field_are_a_4xx[hint--1]",
        "test_wrong_types_in_every_field_are_a_4xx[generate--]",
        "test_wrong_types_in_every_field_are_a_4xx[design--0]",
        "test_wrong_types_in_every_field_are_a_4xx[design--1]",
        "test_wrong_types_in_every_field_are_a_4xx[simplify--]",
        "test_wrong_types_in_every_field_are_a_4xx[convert--]",
    },
    "test_engines.py": {
        "test_the_tiny_counter_equals_the_reference_and_the_recorded_counts[1-13]",
        "test_the_tiny_counter_equals_the_reference_and_the_recorded_counts[1-14]",
    },
    "test_resume.py": {
        "test_sigkill_at_several_moments_then_resume",
        "test_shard_groups_merge_to_the_full_count",
        "test_interrupt_keeps_finished_shards[15-143]",
    },
    "test_web.py": {
        "test_a_live_answer_never_waits_behind_a_search_and_a_full_search_pool_answers_503",
    },
    "test_results.py": {
        "test_small_sizes_are_recounted_by_the_kernel",
        # three committed logs stay quick: a thin one, a stats one, a count
        *(f"test_committed_checkpoints_are_whole_and_agree_with_runs[{key}]" for key in COMMITTED_LONG),
    },
    "test_probing.py": {
        "test_probing_only_sets_what_every_solution_shares[1]",
        "test_probing_only_sets_what_every_solution_shares[2]",
    },
    "test_compiled_logic.py": {
        "test_a_long_generate_says_it_switched_and_a_short_one_stays_interpreted",
        "test_a_solve_with_a_time_limit_holds_it_with_numbas_cache_empty",
    },
    "test_api_docs.py": {
        "test_the_api_tour_runs_as_written",
        "test_the_issues_block_runs_as_written",
    },
    "test_bench.py": {
        "test_kernel_bench_compares_the_counts_variants_and_their_sums",
        "test_bench_runs[threads]",
        "test_bench_runs[dask]",
        "test_kernel_bench_compares_the_stats_variants",
        "test_idle_bench_times_the_foreground_alone_and_beside_an_idle_campaign",
    },
    "test_campaign.py": {
        "test_a_gpu_count_fixes_its_sample_first_and_verify_recounts_it_on_the_cpu",
        "test_a_size_from_stdin_goes_into_the_resume_command",
        "test_the_api_returns_the_partial_run_or_raises_unfinished",
        "test_the_count_command_stops_on_its_budget_says_what_is_left_and_the_resume_command_finishes",
    },
    "test_cli.py": {
        "test_long_size_announces_its_estimate",
    },
    "test_cluster.py": {
        "test_two_workers_count_5x5_and_4x6_exactly",
        "test_a_client_stopped_mid_run_resumes_from_the_checkpoint",
        "test_a_lost_scheduler_stops_the_run_and_a_local_cluster_resumes_it",
        "test_stats_shards_run_as_tasks_too",
        "test_table_records_runs_made_on_the_cluster",
        "test_table_with_an_unreachable_scheduler_says_so",
    },
    "test_count.py": {
        "test_symmetry_reduction_equals_full_enumeration_beyond_the_reference[4-5]",
        "test_transpose_gives_the_same_count",
        "test_symmetry_reduction_equals_full_enumeration_beyond_the_reference[1-18]",
        "test_longest_table_lines_equal_the_line_dp[13-1]",
        # the sizes of 13 to 16 cells, each method: the naive reference enumerates 2^13 to 2^16 grids in Python
        # (up to 12 cells stay quick)
        *(f"test_count_equals_reference[{method}-{n}-{m}]" for method in COUNT_METHODS for n, m in SWEEP_13_16),
        "test_longest_table_lines_equal_the_line_dp[1-13]",
        "test_columns_first_when_only_rows_need_the_line_dp",
        "test_every_group_gives_the_known_square_counts",
        "test_specialised_kernel_equals_reference",
        "test_specialised_kernel_with_solver_columns_equals_reference",
        "test_specialised_shards_with_long_columns_equal_plain_shards",
        # the 14- to 16-cell single lines, each method: the line solver compiled for lines longer than the
        # tables
        *(
            f"test_count_equals_reference[{method}-{n}-{m}]"
            for method in COUNT_METHODS
            for k in (14, 15, 16)
            for n, m in ((1, k), (k, 1))
        ),
    },
    "test_numbering.py": {
        "test_the_grid_engine_check_sees_a_wrong_index",
        "test_the_shipped_5x5_index_is_what_the_engine_builds[nonogram]",
        "test_rank_undoes_nth_on_5x5_and_6x6[5-yesnogram]",
        "test_rank_undoes_nth_on_5x5_and_6x6[6-nonogram]",
        "test_the_shipped_5x5_index_is_what_the_engine_builds[yesnogram]",
        "test_every_code_equals_the_reference_in_both_kernels",
        "test_every_number_of_every_small_size[4-4-nonogram]",
        "test_every_number_of_every_small_size[4-4-yesnogram]",
        "test_every_number_within_each_difficulty",
        "test_the_mirror_and_every_block_give_the_same_index",
        "test_the_three_kernels_agree_on_random_stretches",
    },
    "test_generate.py": {
        "test_search_reaches_the_rarest_5x5_difficulties",
    },
    "test_gpu.py": {
        "test_the_variants_script_times_every_variant_and_checks_its_counts",
        "test_shards_add_up_to_the_count_whatever_their_number",
        "test_every_size_up_to_12_cells_equals_the_reference",
        "test_kernel_variants_equal_the_recorded_counts",
        "test_larger_sizes_equal_the_recorded_counts",
    },
    "test_idle.py": {
        "test_an_idle_runs_records_give_the_shards_cpu_time_without_the_time_they_stood_aside[normal]",
    },
    "test_gpu_campaign.py": {
        "test_a_budget_ends_a_run_and_the_next_calls_resume_it",
    },
    "test_grid_gather.py": {
        "test_gather_threaded_kernel_gives_the_known_counts[gather8]",
        # the gather variants' threaded kernels (the serial ones stay quick: test_a_forced_variant_is_honoured)
        "test_gather_threaded_kernel_gives_the_known_counts[gather4]",
        "test_gather_threaded_kernel_gives_the_known_counts[gather16]",
        "test_measure_on_this_cpu_times_every_candidate",
        "test_gather_counts_equal_plain_kernel_and_reference",
        "test_gather_shards_equal_plain_shards",
        "test_gather_yesnograms_equal_reference",
    },
    "test_puzzlecli.py": {
        "test_ctrl_c_stops_a_long_solve_in_one_line",
    },
    "test_sat.py": {
        "test_auto_answers_faase_with_two_verified_solutions",
    },
    "test_stats.py": {
        "test_known_value_of_5x5",
        "test_cli_sharded_run_is_killed_then_resumed_and_merged",
        "test_paths_groups_and_shard_depths_agree_and_solvable_is_the_count",
    },
    "test_stats_fast.py": {
        "test_singletons_count_the_keys_met_once[20000-40]",
        "test_singletons_count_the_keys_met_once[5000-27]",
        "test_the_estimate_times_a_few_small_shards_drawn_by_their_grids",
        "test_yesnogram_versions_agree",
        "test_any_number_of_lanes_gives_the_same_vectors",
        "test_both_paths_and_both_versions_agree_on_5x5",
        "test_random_shards_equal_the_plain_kernels_shard_by_shard",
        "test_the_generated_kernel_equals_the_reference",
        "test_the_generated_kernel_equals_the_reference_for_yesnograms",
        "test_the_lanes_stop_at_the_same_fixpoints_whether_checked_every_half_pass_or_every_round",
        "test_two_or_three_flat_rows_give_the_same_vectors",
    },
    "test_table.py": {
        "test_other_results_leave_the_readme_in_the_working_directory_alone",
        "test_table_counts_every_size_twice_and_matches_the_reference",
        "test_table_stats_runs_every_size_twice_and_matches_the_reference",
    },
    "test_thin.py": {
        # 2x8, each mode: the naive reference of 2^16 grids,
        *(f"test_thin_equals_reference[{mode}-8]" for mode in ("table-flips", "table-none", "word-flips", "word-none")),
        "test_cli_thin_method",
        "test_thin_equals_general_kernel",
    },
    "test_thin_unique.py": {
        "test_the_api_walks_past_the_enumeration",
        "test_stats_of_a_long_thin_size_prints_the_unique_count_alone",
        "test_matches_oeis_a383345",
    },
    "test_web_limits.py": {
        "test_workers_stop_when_the_server_is_killed[running]",
        "test_a_search_answers_within_half_a_second_of_its_time_limit",
    },
    "test_yesnogram.py": {
        # the sizes of 11 to 16 cells (up to 10 stay quick): the naive yesnogram stats take seconds each
        *(f"test_every_counter_equals_the_reference[{n}-{m}]" for n, m in sizes_up_to(16) if n * m >= 11),
        "test_complement_transposition_counts_the_same",
        "test_uniqueness_to_20_cells_from_both_stats_paths",
    },
}


def pytest_collection_modifyitems(config, items):
    """Mark the LONG tests ``long``: a test function by its name (every parametrisation), or one case by its
    name with its parameters' id (``test_x[4-4-nonogram]``)."""
    for item in items:
        long = LONG.get(item.path.name, ())
        named = getattr(item, "originalname", None) in long or item.name in long
        if named and not item.get_closest_marker("slow"):  # a slow case stays opt-in (-m slow), not run by CI
            item.add_marker(pytest.mark.long)


def pytest_sessionstart(session):
    """In each pytest-xdist worker, its share of the kernels most tests compile, before the first test
    (``warmup``): compiled once for the run, not once per worker."""
    workerinput = getattr(session.config, "workerinput", None)
    if workerinput is not None:
        import warmup

        warm_id = int(workerinput["workerid"].removeprefix("gw"))
        warmup.warm(warm_id, int(workerinput["workercount"]))
