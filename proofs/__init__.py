"""The papers' claims, one folder per paper, one module per theorem or example.

| folder        | paper (../shared/seeds/)  |
|---------------|---------------------------|
| rldp          | 000_aca93ed29ea857ee.txt  |
| falpha        | 001_29f852b736fc5e16.txt  |
| pram          | 002_e8b3078a5cf2ef08.txt  |
| isit          | 003_726cfd382c041001.txt  |
| kairouz       | 004_3b35ffa09c03afc4.txt  |

Modules register claims with :func:`rldp_verify.claims.claim`; ``rldp-verify report`` discovers them.
"""
