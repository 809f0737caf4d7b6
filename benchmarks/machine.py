"""The machine a benchmark's figures were measured on, as the docs name it."""

from __future__ import annotations

import platform
import subprocess


def cpu_model() -> str:
    """``lscpu``'s model name, family and model (the figures' machine)."""
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or platform.machine()
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    parts = [fields.get(key, "").strip() for key in ("Model name", "CPU family", "Model")]
    return f"{parts[0]}, family {parts[1]}, model {parts[2]}"
