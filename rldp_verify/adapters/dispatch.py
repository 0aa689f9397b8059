"""From a library object to its channel: :func:`adapt` picks the library's adapter by the object's module;
:func:`dense_mechanism` and :func:`channel` give the dense :class:`~rldp_verify.rldp.mechio.Mechanism` for small
domains; :func:`audit_adapted` audits the structured channel for eps-LDP."""

from __future__ import annotations

from rldp_verify.adapters._common import _Events
from rldp_verify.adapters.multi_freq_ldpy import _mfl
from rldp_verify.adapters.opendp import _opendp
from rldp_verify.adapters.pure_ldp import _pure_ldp
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.structured import Adapted, LaplaceHistogram, PublicMixture, audit_structured


def _module(obj) -> str:
    fn = getattr(obj, "py_func", None)   # numba dispatchers wrap the Python function
    target = fn if fn is not None else obj
    return getattr(target, "__module__", None) or type(obj).__module__ or ""


def _name(obj) -> str:
    fn = getattr(obj, "py_func", None)
    target = fn if fn is not None else obj
    return getattr(target, "__name__", type(obj).__name__)


def adapt(obj, *, model: str = "code", **params) -> Adapted:
    """The structured exact channel of ``obj`` with its sampler model (see :mod:`rldp_verify.adapters`); with
    ``model="code"`` the result's ``ideal`` is the exact-Bernoulli channel of the same float parameters."""
    a = _adapt(obj, model, params)
    if model == "code":
        a.ideal = _adapt(obj, "ideal", params).structure
    return a


def _adapt(obj, model, params) -> Adapted:
    ev = _Events(model)
    tname = f"{type(obj).__module__}.{type(obj).__qualname__}"
    if type(obj).__module__.startswith("pure_ldp"):
        return _pure_ldp(obj, ev, params)
    mod = _module(obj)
    if mod.startswith("multi_freq_ldpy"):
        return _mfl(obj, ev, params)
    if mod.startswith("opendp") or type(obj).__module__.startswith("opendp"):
        return _opendp(obj, _name(obj), ev, params)
    raise InputError(f"unsupported object of type {tname}: no adapter (supported: pure-ldp UEClient/DEClient/"
                     "LHClient/FastLHClient/HEClient/RAPPORClient/CMSClient/HadamardMechClient/HadamardResponseClient/"
                     "SketchResponseClient/PCSClient/PEMClient, multi-freq-ldpy "
                     "GRR/UE/LH/SS/HE/ADP_Client, L_GRR/L_SUE/L_OUE/L_OSUE/"
                     "L_SOUE/L_ADP/L_LH_Client, dBitFlipPM_Client, SMP_*, SPL_*, RSpFD_*, opendp "
                     "make_randomized_response[_bool|_bitvec], make_laplace/make_geometric/make_gaussian, "
                     "make_laplace_threshold/make_gaussian_threshold)")


def audit_adapted(obj_or_adapted, eps, *, tolerance=None, model: str = "code", distribution=None, sizes=None,
                  **params):
    """eps-LDP audit of a library object (or an :class:`Adapted`) through its structured exact channel:
    :func:`rldp_verify.structured.audit_structured`; with ``distribution`` (an |S| x |U| table), its
    (eps, P)-RLDP audit (GRR, unary encodings, subset selection; InputError for the other structures)."""
    a = obj_or_adapted if isinstance(obj_or_adapted, Adapted) else adapt(obj_or_adapted, model=model, **params)
    return audit_structured(a, eps, tolerance=tolerance, distribution=distribution, sizes=sizes)


def _dense_sizes(sizes, d: int):
    """The (sensitive, public) arguments of :meth:`Mechanism.from_matrix` for a domain of size d."""
    if sizes is None:
        return [str(i) for i in range(d)], ["*"]
    try:
        a1, a2 = (int(v) for v in sizes)
    except (TypeError, ValueError):
        raise InputError(f"sizes = {sizes!r} must be (|S|, |U|)") from None
    if a1 * a2 != d or a1 < 1 or a2 < 1:
        raise InputError(f"sizes = {sizes!r} do not multiply to the domain size {d}")
    return a1, a2


def dense_mechanism(a: Adapted, sizes=None) -> Mechanism:
    """The dense Mechanism of an adapted channel (small domains; a finite seed set for local hashing)."""
    st = a.structure
    if isinstance(st, LaplaceHistogram):
        raise InputError(f"{a.name}: continuous or unbounded outputs have no dense channel; audit it with --ldp "
                         "(exact)")
    rows, outs = st.dense()
    d = len(rows[0])
    keep = [i for i, r in enumerate(rows) if any(r)]          # outputs impossible under every input
    rows, outs = [rows[i] for i in keep], [outs[i] for i in keep]
    sens, pub = _dense_sizes(sizes, d)
    notes: tuple[str, ...] = (f"exact channel of {a.name}; sampler model: {a.sampler}",)
    if isinstance(st, PublicMixture) and not st.complete:
        notes += (f"dense form restricted to the seeds {list(st.seeds)} (uniform); the full seed range gives "
                  "the same eps-LDP ratio when a seed separates the inputs",)
    return Mechanism.from_matrix(rows, sens, pub, outs, eps=None, guarantee=None,
                                 parameters={"adapter": a.name, **{k: repr(v) for k, v in a.float_params.items()}},
                                 notes=notes)


def channel(obj, *, sizes=None, model: str = "code", **params) -> Mechanism:
    """The dense exact channel of ``obj`` (small domains): :func:`adapt` then :func:`dense_mechanism`."""
    return dense_mechanism(adapt(obj, model=model, **params), sizes)
