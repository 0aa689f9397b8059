"""``rldp-verify audit --certificate FILE`` and ``rldp-verify check-certificates DIR|FILE``."""

import json

import pytest

from rldp_verify.cli import main

PHAT = "0.07,0.10;0.26,0.57"


@pytest.fixture
def mech(tmp_path):
    path = tmp_path / "m.json"
    assert main(["mechanism", "grr", "--eps", "1", "--phat", "7,10;26,57", "-o", str(path)]) == 0
    return path


@pytest.mark.parametrize("args, code", [(["--eps", "1", "--phat", PHAT, "--alpha", "2", "--radius", "0.1"], 0),
                                        (["--eps", "1/2", "--phat", PHAT, "--alpha", "2", "--radius", "0.1"], 1),
                                        (["--eps", "1", "--ldp"], 0), (["--eps", "log(2)", "--full-simplex"], 1),
                                        (["--eps", "1", "--distribution", "0.1,0.1;0.2,0.6"], 0)])
def test_audit_writes_a_certificate_that_rechecks(mech, tmp_path, capsys, args, code):
    cert = tmp_path / "certs" / "c.json"
    assert main(["audit", str(mech), *args, "--certificate", str(cert), "--quiet"]) == code
    assert "(re-checked)" in capsys.readouterr().err
    assert main(["check-certificates", str(tmp_path / "certs")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("OK    audit") and out[-1] == "1 certificates, 1 re-checked, 0 failed"


def test_check_certificates_exit_1_on_a_tampered_certificate(mech, tmp_path, capsys):
    cert = tmp_path / "c.json"
    main(["audit", str(mech), "--eps", "1", "--phat", PHAT, "--alpha", "2", "--radius", "0.1", "--certificate",
          str(cert), "--quiet"])
    doc = json.loads(cert.read_text())
    doc["statement"]["set"]["radius"] = "1/20"      # the same bound claimed for a ball it was not computed for
    doc["statement"]["ratio_upper"] = "2"
    cert.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["check-certificates", str(cert)]) == 1
    assert capsys.readouterr().out.splitlines()[0].startswith("FAIL  audit")


def test_check_certificates_bad_path_and_empty_dir(tmp_path, capsys):
    assert main(["check-certificates", str(tmp_path / "missing")]) == 2
    assert main(["check-certificates", str(tmp_path)]) == 1


def test_audit_keeps_its_verdict_when_no_certificate_can_be_built(mech, tmp_path, capsys, monkeypatch):
    import rldp_verify.certificates.audit as ca

    def boom(*a, **k):
        raise ArithmeticError("simulated")
    monkeypatch.setattr(ca, "audit_certificate", boom)
    cert = tmp_path / "c.json"
    assert main(["audit", str(mech), "--eps", "1", "--ldp", "--certificate", str(cert), "--quiet"]) == 0
    assert "FAILED: no certificate written: ArithmeticError: simulated" in capsys.readouterr().err
    assert not cert.exists()


@pytest.mark.parametrize("where, why", [("dir", "it is a directory"), ("below-file", "is not a directory"),
                                        ("read-only", "permission denied")])
def test_audit_checks_the_certificate_path_before_the_audit(mech, tmp_path, capsys, monkeypatch, where, why):
    """An unwritable --certificate FILE is one line and exit 2 before any audit work (the audit is not called)."""
    import os

    import rldp_verify.rldp.audit as ra

    def never(*a, **k):
        raise AssertionError("the audit ran before the --certificate path was checked")

    monkeypatch.setattr(ra, "audit", never)
    blocked = tmp_path / "file"
    blocked.write_text("")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    if where == "read-only" and os.access(ro, os.W_OK):
        pytest.skip("running as a user that can write a read-only folder (root)")
    cert = {"dir": tmp_path, "below-file": blocked / "a" / "c.json", "read-only": ro / "c.json"}[where]
    assert main(["audit", str(mech), "--eps", "1", "--ldp", "--certificate", str(cert), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write" in err[0] and why in err[0] and str(cert) in err[0]


def test_audit_certificate_under_missing_folders_is_still_written(mech, tmp_path, capsys):
    cert = tmp_path / "x" / "y" / "c.json"
    assert main(["audit", str(mech), "--eps", "1", "--ldp", "--certificate", str(cert), "--quiet"]) == 0
    assert cert.is_file()
