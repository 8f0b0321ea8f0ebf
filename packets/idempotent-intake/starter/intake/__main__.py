"""Run the service: python3 -m intake (binds 127.0.0.1:8088, data in ./data)."""
from intake.app import main

main()
