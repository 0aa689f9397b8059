"""The chi-square (order-2 Rényi) uncertainty ball and the robust LDP protocols built on it.

- :mod:`.ball`       support functions, the joint projection and its lift, conjugates
- :mod:`.protocols`  the robust protocols NUNP / NURP / RUNP / RURP (cvxpy + Clarabel)
"""
