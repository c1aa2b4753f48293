"""--cut dxf where the optional ezdxf is not installed: one message naming the extra, exit 1, nothing built."""

from __future__ import annotations

import builtins

from click.testing import CliRunner

from generator.cli import main
from tests.test_content_errors import make_game


def test_cut_dxf_without_ezdxf_names_the_extra_before_building(tmp_path, monkeypatch):
    make_game(tmp_path, {})
    real_import = builtins.__import__

    def without_ezdxf(name, *args, **kwargs):
        if name == "ezdxf" or name.startswith("ezdxf."):
            raise ImportError("No module named 'ezdxf'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_ezdxf)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "g", "--content", ".", "--out", "out", "--only", "cards",
                                       "--cut", "dxf", "--jobs", "1"])
    assert result.exit_code == 1, result.output
    assert 'pip install "pnp-generator[dxf]"' in result.output
    assert "bug in pnp" not in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))
