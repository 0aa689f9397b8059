from rldp_verify.cli import main

# guarded: worker processes started by multiprocessing (report --jobs, Dask's LocalCluster) import
# this module as __mp_main__ and must not run the command line again
if __name__ == "__main__":
    raise SystemExit(main())
