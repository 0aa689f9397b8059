"""The Sec. 8 experiments fan out over Dask with results independent of the number of workers."""

from rldp_verify.claims import Context
from rldp_verify.core.distributed import DaskCluster


def test_sec8_experiment_on_two_worker_cluster_equals_sequential():
    # a small Sec. 8.2 experiment (synthetic runs, exact PolyOpt and NR) on a 2-worker LocalCluster
    from proofs.rldp import sec8_synthetic as s8

    tasks = s8.synthetic_tasks(20240306, shapes={(2, 2): 3}, eps_list=("0.5", "1.5"), betas=("0.05",))
    seq = Context().map(s8.run_task, tasks)
    with DaskCluster(n_workers=2, processes=False) as cl:
        par = Context(scheduler=cl.address).map(s8.run_task, tasks)
    assert par == seq
    assert len(seq) == 3 and all(set(r["evals"]) == {("0.5", "0.05"), ("1.5", "0.05")} for r in seq)
