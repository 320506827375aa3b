"""The LED board: wire protocol, host link, simulated board, flashing (hardware/PROTOCOL.md)."""
