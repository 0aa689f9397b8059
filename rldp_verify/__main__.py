from rldp_verify.cli import main

raise SystemExit(main())
