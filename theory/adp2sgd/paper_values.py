"""Values printed in seed 001 (001_53c39e87fd81b1a8.txt) that the claims compare against or take as inputs.

Every value is a :class:`theory.printed.Printed` (text exactly as on its line); ``tests/test_paper_values``
checks that each text stands on its line. These are INPUTS, never expected outputs of our code.
"""
from __future__ import annotations

from theory.printed import Printed

SEED = "001_53c39e87fd81b1a8.txt"

#: the experimental set-up of Sec. 5 / App. B (CIFAR-10 and SWB300).
SETUP = {
    "gpus": Printed("16", "L232"),                     # 16 GPUs = 16 learners (K)
    "cifar_batch_per_gpu": Printed("256", "L232"),
    "cifar_total_batch": Printed("4096", "L232"),
    "cifar_lr_1": Printed("0.4", "L232"),
    "cifar_lr_2": Printed("0.04", "L232"),
    "cifar_lr_3": Printed("0.004", "L232"),
    "cifar_epoch_1": Printed("160", "L232"),
    "cifar_epoch_2": Printed("240", "L232"),
    "cifar_last_epochs": Printed("60", "L232"),
    "swb_batch_per_gpu": Printed("128", "L232"),
    "swb_total_batch": Printed("2048", "L232"),
    "swb_warmup_epochs": Printed("10", "L232"),
    "cifar_images": Printed("60,000", "L338"),
    "cifar_train": Printed("50,000", "L338"),
    "cifar_test": Printed("10,000", "L338"),
    "swb_train_samples_million": Printed("4.2", "L342"),
    "lstm_params_million": Printed("43", "L342"),
    "lstm_size_mb": Printed("165", "L214"),
    "gpus_per_server": Printed("8", "L334"),
    "servers": Printed("2", "L334"),
}

#: the SWB300 acoustic model as L214 describes it: 6 bi-directional LSTM layers of 1,024 cells (512 per direction), a
#: 256-unit linear projection, a 32,000-unit softmax; input FMLLR 40 + i-Vector 100 + logmel 40 x 3 (delta, double delta).
LSTM = {
    "layers": Printed("6", "L214"), "cells_per_direction": Printed("512", "L214"),
    "cells_per_layer": Printed("1,024", "L214"), "projection": Printed("256", "L214"),
    "classes": Printed("32,000", "L214"), "fmllr": Printed("40", "L214"), "ivector": Printed("100", "L214"),
    "logmel": Printed("40", "L214"), "logmel_copies": Printed("3", "L214"),
}

#: Table 1 caption (L230): the noise levels sigma (small, medium, large).
NOISE = {
    "cifar": (Printed("1", "L230"), Printed("2", "L230"), Printed("4", "L230")),
    "swb": (Printed("0.08", "L230"), Printed("0.16", "L230"), Printed("0.32", "L230")),
}

#: Table 1 (L218-230): columns Baseline SYNC, Baseline ADPSGD, then (SYNC, A(DP)2) at small, medium,
#: large noise. CIFAR-10 rows: test accuracy (%); LSTM (SWB300) row: held-out loss.
TABLE_1_COLUMNS = ("baseline_sync", "baseline_adpsgd", "small_sync", "small_adp2", "medium_sync", "medium_adp2",
                   "large_sync", "large_adp2")
TABLE_1 = {
    "EfficientNet-B0": tuple(Printed(v, "L220") for v in ('90.41', '91.21', '90.26', '89.90', '88.13', '87.01', '82.99', '82.47')),
    "ResNext-29": tuple(Printed(v, "L221") for v in ('92.82', '94.17', '91.63', '91.52', '89.30', '88.61', '84.35', '82.20')),
    "MobileNet": tuple(Printed(v, "L222") for v in ('91.87', '92.80', '90.58', '90.59', '88.92', '88.13', '84.16', '83.11')),
    "MobileNetV2": tuple(Printed(v, "L223") for v in ('94.29', '94.14', '92.61', '92.13', '90.93', '90.45', '86.52', '84.83')),
    "VGG-19": tuple(Printed(v, "L224") for v in ('92.95', '92.73', '91.21', '91.03', '88.27', '87.89', '82.80', '81.78')),
    "ResNet-18": tuple(Printed(v, "L225") for v in ('94.01', '94.97', '91.67', '91.64', '89.08', '88.43', '83.40', '81.01')),
    "ShuffleNet": tuple(Printed(v, "L226") for v in ('92.74', '92.67', '91.23', '90.78', '89.39', '88.71', '85.08', '82.67')),
    "GoogleNet": tuple(Printed(v, "L227") for v in ('94.04', '94.65', '91.94', '92.26', '90.28', '90.05', '86.34', '85.51')),
    "SENet-18": tuple(Printed(v, "L228") for v in ('94.19', '94.68', '91.99', '91.92', '89.99', '88.99', '10.00', '82.90')),
    "LSTM": tuple(Printed(v, "L229") for v in ('1.566', '1.585', '1.617', '1.627', '1.752', '1.732', '1.990', '2.010')),
}

#: Table 2 (L346-357): model size (MB), training time on one V100 (hr).
TABLE_2 = {
    "ShuffleNet/C": (Printed("4.82", "L347"), Printed("4.16", "L347")),
    "MobileNetV2/C": (Printed("8.76", "L348"), Printed("4.63", "L348")),
    "EfficientNet-B0/C": (Printed("11.11", "L349"), Printed("5.53", "L349")),
    "MobileNet/C": (Printed("12.27", "L350"), Printed("3.55", "L350")),
    "GoogleNet/C": (Printed("23.53", "L351"), Printed("8.43", "L351")),
    "ResNext-29/C": (Printed("34.82", "L352"), Printed("7.08", "L352")),
    "ResNet-18/C": (Printed("42.63", "L353"), Printed("5.56", "L353")),
    "SENet-18/C": (Printed("42.95", "L354"), Printed("5.80", "L354")),
    "VGG-19/C": (Printed("76.45", "L355"), Printed("7.42", "L355")),
    "LSTM/S": (Printed("164.62", "L356"), Printed("102.41", "L356")),
}

#: slow-down factors of the heterogeneity case studies (Sec. 5.3).
CASES = {
    "case1_slowdown": Printed("2", "L244"),        # "a random learner that runs 2X slower"
    "case2_slowdown": Printed("10", "L251"),       # "one learner is 10X slower"
    "case3_batch_factor": Printed("2", "L255"),    # batch and learning rate scaled by 2
}

#: constants of Lemma 2 (L528): the region sigma^2/Delta^2 >= 1.5 and the factor 5 of the RDP bound.
LEMMA_2 = {
    "variance_ratio_floor": Printed("1.5", "L528"),
    "factor": Printed("5", "L528"),
}
