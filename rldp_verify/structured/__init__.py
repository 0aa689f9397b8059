"""Structured exact channels (product of per-bit channels, mixture over a public component, composition,
symmetry) and their eps-LDP audit without enumerating outputs; exact models of float samplers.

- :mod:`rldp_verify.structured.channels`: the structures and their exact worst ratios;
- :mod:`rldp_verify.structured.composite`: structures over several attributes (budget splitting, RS+FD with
  per-attribute fake data), over released bit positions (dBitFlipPM) and Bloom filters (RAPPOR, CMS);
- :mod:`rldp_verify.structured.sketch`: sketches (a released hash row, then a frequency oracle on the image:
  sketch response, PEM; private count sketch);
- :mod:`rldp_verify.structured.rldp`: :func:`p_ratio` / ``p_interval``, (eps, P)-RLDP on S x U for one exact P,
  without enumerating outputs: exact for GRR, unary encodings and subset selection, a certified interval for
  local hashing (exact when the seeds are the whole public range);
- :mod:`rldp_verify.structured.samplers`: exact event probabilities of float64 uniform comparisons and
  NumPy's legacy ``binomial(1, p)``;
- :mod:`rldp_verify.structured.audit`: :func:`audit_structured` (verdict, excess over eps, rounding budget,
  ``tolerance``; ``distribution=P`` for (eps, P)-RLDP, ``ball=`` for a Rényi ball of a unary encoding).
"""

from rldp_verify.structured.audit import Adapted, StructuredAudit, audit_structured
from rldp_verify.structured.channels import (
    AttributeMixture,
    BitChannel,
    FakeDataMixture,
    FakeDataUnary,
    LaplaceHistogram,
    PublicMixture,
    SubsetSelection,
    Symmetric,
    UnaryProduct,
    compose,
)
from rldp_verify.structured.composite import (
    AttributeProduct,
    BloomProduct,
    DiscreteLaplaceShift,
    FakeData,
    SampledBits,
    TwoLevel,
    WeightedBits,
)
from rldp_verify.structured.rldp import p_ratio
from rldp_verify.structured.sketch import HashedInput, SignedSketch, hashed_mixture

__all__ = ["Adapted", "StructuredAudit", "audit_structured", "BitChannel", "UnaryProduct", "Symmetric",
           "PublicMixture", "SubsetSelection", "LaplaceHistogram", "AttributeMixture", "FakeDataMixture",
           "FakeDataUnary", "compose", "AttributeProduct", "FakeData", "SampledBits",
           "BloomProduct", "DiscreteLaplaceShift",
           "TwoLevel", "WeightedBits", "p_ratio", "HashedInput", "SignedSketch", "hashed_mixture"]
