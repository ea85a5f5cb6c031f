"""The heuristic bot's calibrated win-probability model, loaded once as a constant table.

``calibration.json`` is written by ``scripts/calibrate_bots.py`` (self-play
Monte Carlo + logistic regression); the kernels read :data:`MODEL`, an array
of shape ``(N_CLASSES * N_SITUATIONS, N_FEATURES)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .handeval import N_CLASSES, N_FEATURES, N_SITUATIONS

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")


def load_model(path: Path = CALIBRATION_FILE) -> np.ndarray:
    """Coefficient table from a calibration file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    model = np.array(data["coefficients"], dtype=np.float64)
    if model.shape != (N_CLASSES * N_SITUATIONS, N_FEATURES):
        raise ValueError(f"{path}: coefficient table has shape {model.shape}")
    model.flags.writeable = False
    return model


MODEL = load_model()
