"""The machinery of robust local differential privacy (the core RLDP paper).

- :mod:`.uncertainty`    Rényi balls, Theorem 1 projections, L_{u|s}, rad_s
- :mod:`.xi_interval`    the binary Rényi ball: xi-/xi+, the t-interval (Sec. 4.2, Lemma 1)
- :mod:`.projection`     the joint projection F_{U|s1,s2} and the lift back into F (one implementation)
- :mod:`.gamma`          PolyOpt's cone Gamma_eps and the vertices of Gamma-hat
- :mod:`.mechanisms`     GRR, SRR, IR, PolyOpt, NR and their exact guarantee checks
- :mod:`.mechio`         the ``Mechanism`` type and its JSON format
- :mod:`.audit`          the certified (eps, F)-RLDP / eps-LDP auditor
- :mod:`.srr_threshold`  SRR's optimality threshold eps_0 (Theorem 4) and the cone of Lemma A8
- :mod:`.experiments`    float helpers for statistical statements
- :mod:`.data`           P-hat from a CSV file
"""
