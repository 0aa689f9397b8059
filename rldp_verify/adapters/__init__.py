"""Exact channels of mechanism objects from widely used LDP libraries, down to the float sampler.

``adapt(obj, **params)`` returns an :class:`~rldp_verify.structured.Adapted`: a structured exact channel
(:mod:`rldp_verify.structured.channels`) of what the object's code samples from, the sampler model and the
float parameters; :func:`audit_adapted` audits it for eps-LDP at any domain size without enumerating
outputs. ``channel(obj, **params)`` returns the dense :class:`~rldp_verify.rldp.mechio.Mechanism` (column-
stochastic Q[y|x]) for small domains, for the (eps, F)-RLDP audit.

=================  ===============================================  ================================
library            object (parameters)                              structure
=================  ===============================================  ================================
pure-ldp           ``UEClient`` (SUE; OUE with ``use_oue``)           per-bit product (unary encoding)
                   ``DEClient``                                     GRR on d values
                   ``LHClient`` (BLH: g = 2; OLH: ``use_olh``)        public seed mixture of GRR on g
                   ``FastLHClient`` (seeds in range(k))              the same, over k seeds
                   ``HEClient`` (SHE / THE: the server thresholds)  ideal Laplace histogram
                   ``RAPPORClient`` (``d``)                          public cohort mixture of a Bloom filter product
                   ``CMSClient`` (``d``; HCMS: ``is_hadamard``)        public hash index mixture (CMS: per-entry
                                                                    product; HCMS: binary RR on a Hadamard sign)
                   ``HadamardMechClient``                            public rows mixture of GRR on 2^t sign tuples
                   ``HadamardResponseClient``                        two-level channel on Hadamard supports
                   ``SketchResponseClient`` (``d``; count sketch)     released hash row j, the inner client on h_j(x)
                   ``PCSClient`` (``d``)                             released row j, +-1 vector with the sign at h_j(x)
                   ``PEMClient``                                     released group, the inner client on a prefix
                   ``TreeHistClient``                                word LH x secret mixture over prefixes of a
                                                                    fragment LH (certified interval)
multi-freq-ldpy    ``GRR_Client`` (``k``, ``epsilon``)                GRR on k values
                   ``UE_Client`` (``k``, ``epsilon``, ``optimal``)    per-bit product
                   ``LH_Client`` (``k``, ``epsilon``, ``optimal``)    public seed mixture of GRR on g
                   ``SS_Client`` (``k``, ``epsilon``)                 subset selection (ordered array)
                   ``HE_Client`` (``k``, ``epsilon``)                 ideal Laplace histogram
                   ``L_GRR_Client`` (``k``, ``eps_perm``, ``eps_1``)  GRR then GRR (one report)
                   ``L_SUE/L_OUE/L_OSUE/L_SOUE_Client`` (same)      per-bit product of two rounds
                   ``SMP_GRR/UE/LH/SS_Client`` (``lst_k``,           mixture over the released sampled
                   ``epsilon``, ``optimal``)                         attribute
                   ``RSpFD_GRR_Client`` (``lst_k``, ``epsilon``)     secret attribute + uniform fake data
                   ``RSpFD_UE_zero_Client`` (``lst_k``, ``epsilon``, secret attribute through UE + UE of
                   ``optimal``)                                      the zero vector elsewhere
                   ``RSpFD_UE_rnd_Client`` (same)                     secret attribute + UE of uniform random values
                   ``ADP_Client``, ``L_ADP_Client``, ``SMP_ADP_Client``, the client the code chooses (GRR / OUE,
                   ``RSpFD_ADP_Client``                                L-GRR / L-OSUE), per attribute
                   ``SPL_GRR/UE/LH/SS/ADP_Client`` (``lst_k``,        product over the attributes (eps / d each)
                   ``epsilon``, ``optimal``)
                   ``L_LH_Client`` (``k``, ``eps_perm``, ``eps_1``)    public seed mixture of L-GRR on g
                   ``dBitFlipPM_Client`` (``k``, ``b``, ``d_bits``,    released sampled positions of a per-bit
                   ``eps_perm``)                                      channel on the bucket
                   ``SMP_L_*`` / ``SPL_L_*`` (L-GRR, L-OUE, L-OSUE,  the longitudinal client per attribute:
                   L-SUE, L-SOUE, L-ADP), ``SMP/SPL_dBitFlipPM``      mixture over the released attribute (SMP)
                   (``lst_k``, ``eps_perm``, ``eps_1`` or ``lst_b``,  or product over the attributes (SPL)
                   ``d_bits``)
opendp             ``make_randomized_response`` (``categories``,     GRR on the categories
                   ``prob``), ``make_randomized_response_bool``
                   ``make_randomized_response_bitvec`` (``n_bits``,  product of n bits over the vectors
                   ``max_weight``, ``f``)                           of weight <= max_weight
                   ``make_laplace``, ``make_geometric`` (``bounds``, integer + discrete Laplace,
                   ``scale``)                                       eps = (upper - lower) / scale
                   ``make_laplace`` on floats (``T="float"``, ``k``)  x rounded to the 2^k lattice + discrete Laplace
                   ``make_gaussian`` (integers, floats)              discrete Gaussian: eps = inf
                   ``make_laplace_threshold``, ``..._gaussian_..``  threshold release: eps = inf
=================  ===============================================  ================================

Sampler model (``model="code"``, the default): every probability is that of the event the code draws,
read off the code by running it once with recording stand-ins for its random calls
(:mod:`rldp_verify.structured.trace`), so the thresholds are the library's own float64 values:
``random.random() < p`` and NumPy's / numba's ``random() <= p`` are events of probability ceil(p 2^53) / 2^53
and (floor(p 2^53) + 1) / 2^53; ``np.random.choice([1, 0], p=[q, 1 - q])`` is the event U < cdf[0];
``binomial(1, p)`` is NumPy's or numba's rejection loop (:mod:`rldp_verify.structured.samplers`); integer
draws are exactly uniform. ``model="ideal"`` reads every float probability as an exact Bernoulli(p) (the
channel the code approximates). multi-freq-ldpy's clients are numba-compiled: they draw from numba's own
generator, whose ``random()`` is the same k / 2^53 and whose ``binomial`` differs from NumPy's (qn = 1 - p
instead of exp(log(1 - p))). Laplace noise (HE) is audited as the ideal continuous mechanism with the
library's float scale b: eps = 2 / b exactly; the float Laplace sampler is not modelled (its weaknesses,
Mironov CCS 2012, are for the black-box audit).

Known library behaviour, reproduced: pure-ldp before 1.2.0 does not clear the true bit before setting it in
``UEClient._perturb`` (OUE at a claimed eps has eps = ln(e^eps + 2)); the version 1.2.0 channel is modelled as
"bit cleared, then set when random() < p" (checked against the 1.2.0 wheel's ``ue_client.py``; the adapter
reads which of the two the installed code does from the trace and refuses a code that disagrees with its
version number). multi-freq-ldpy's ``SS_Client`` returns an array whose first entry is the true value when it
is included and the rest in random order: as released, an output (x, x', ...) is impossible under x', so its eps is
infinite for subsets of size >= 2; ``as_set=True`` audits the set (what the aggregator uses). Both libraries'
local hashing call ``xxhash.xxh32(str(v), seed=...)``, which xxhash 4 refuses (TypeError "Strings must be
encoded before hashing"); xxhash < 4 hashes the UTF-8 bytes with the seed taken mod 2^32 (checked against
xxhash 3.5.0 for str and bytes inputs and seeds up to sys.maxsize, Python and NumPy ints), which the adapter
reproduces, and says so.

Inputs are the library's value indices 0..d-1. An object of any other type raises
:class:`~rldp_verify.core.errors.InputError` naming it.

The package: :mod:`~rldp_verify.adapters._common` (parameter checks, sampler model, versions, tracing),
one module per library (:mod:`~rldp_verify.adapters.pure_ldp`, :mod:`~rldp_verify.adapters.pure_ldp_more` and
:mod:`~rldp_verify.adapters.pure_ldp_sketch`,
:mod:`~rldp_verify.adapters.multi_freq_ldpy` and
:mod:`~rldp_verify.adapters.multi_freq_ldpy_more`,
:mod:`~rldp_verify.adapters.opendp`), :mod:`~rldp_verify.adapters.dispatch` (:func:`adapt`, :func:`channel`,
:func:`audit_adapted`) and :mod:`~rldp_verify.adapters.specs` (``LIBRARY:NAME``).
"""

from __future__ import annotations

from rldp_verify.adapters._common import MODELS, SEED_SEARCH, xxhash_problem
from rldp_verify.adapters._common import _lh_hash as _lh_hash
from rldp_verify.adapters.dispatch import adapt, audit_adapted, channel, dense_mechanism
from rldp_verify.adapters.pure_ldp import pure_ldp_has_ue_bug
from rldp_verify.adapters.specs import SPECS, adapt_spec, from_spec, sampler_spec

__all__ = ["adapt", "audit_adapted", "channel", "dense_mechanism", "from_spec", "adapt_spec", "SPECS",
           "pure_ldp_has_ue_bug", "xxhash_problem", "MODELS", "SEED_SEARCH", "sampler_spec"]
