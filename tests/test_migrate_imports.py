"""scripts/migrate_imports.py: old module paths become new ones, every new path imports, a second run is a no-op."""

import importlib
import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("migrate_imports", Path(__file__).parents[1] / "scripts" / "migrate_imports.py")
migrate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(migrate)

OLD = '''from rldp_verify.uncertainty import RenyiBall
from rldp_verify import pram, report, falpha as fa
from rldp_verify import gamma
import rldp_verify.audit.pair
from rldp_verify.mechanisms.polyopt import solve_eq46
from proofs.rldp.theorem1 import check
po = sys.modules["rldp_verify.mechanisms.polyopt"]
x = rldp_verify.audit.pair.solve_pair
from rldp_verify.claims import claim
'''

NEW = '''from rldp_verify.rldp.uncertainty import RenyiBall
from rldp_verify.topics import pram, fdiv as fa
from rldp_verify import report
from rldp_verify.rldp import gamma
import rldp_verify.rldp.audit.pair
from rldp_verify.rldp.mechanisms.polyopt import solve_eq46
from proofs.rldp.thm1_projection import check
po = sys.modules["rldp_verify.rldp.mechanisms.polyopt"]
x = rldp_verify.rldp.audit.pair.solve_pair
from rldp_verify.claims import claim
'''


def test_rewrite_and_idempotent():
    assert migrate.rewrite(OLD) == NEW
    assert migrate.rewrite(NEW) == NEW


def test_renamed_leaf_keeps_its_local_name():
    assert migrate.rewrite("from rldp_verify import falpha\n") == "from rldp_verify.topics import fdiv as falpha\n"


@pytest.mark.parametrize("new", sorted(set(migrate.MOVED.values()) | set(migrate.PROOFS_MOVED.values())))
def test_every_new_path_imports(new):
    importlib.import_module(new)


@pytest.mark.parametrize("old", sorted(migrate.MOVED))
def test_old_paths_are_gone(old):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
