"""The settings a server takes from its environment: read once, in one place, into the app's config."""

from __future__ import annotations

import pytest

from referee.web import create_app, pool_options
from referee.web.settings import MAX_BODY, WRITE_LIMIT, Settings


def test_an_empty_environment_gives_the_defaults():
    s = Settings.from_env({})
    assert s == Settings()
    assert (s.write_limit, s.write_limit_on, s.max_body, s.trust_proxy, s.https) == (WRITE_LIMIT, True, MAX_BODY,
                                                                                      0, False)
    assert (s.host, s.port, s.workers, s.threads, s.access_log) == (None, 8000, None, None, False)


def test_each_variable_is_read_as_its_kind():
    s = Settings.from_env({
        "SECRET_KEY": "k", "DATABASE_URL": "postgresql://db/x", "PUBLIC_URL": "https://rummy.example.org",
        "TRUSTED_HOSTS": " rummy.example.org, ,localhost ", "RATE_LIMIT_WRITES": "5 per second", "RATE_LIMIT": "off",
        "MAX_CONTENT_LENGTH": "1000", "TRUST_PROXY": "2", "HTTPS": "1", "DB_POOL_SIZE": "4", "DB_MAX_OVERFLOW": "0",
        "HOST": "0.0.0.0", "PORT": "9000", "WORKERS": "4", "THREADS": "2", "ACCESS_LOG": "1"})
    assert s.trusted_hosts == ("rummy.example.org", "localhost")
    assert (s.write_limit, s.write_limit_on, s.max_body, s.trust_proxy, s.https) == ("5 per second", False, 1000,
                                                                                      2, True)
    assert (s.pool_size, s.max_overflow, s.host, s.port, s.workers, s.threads, s.access_log) == (
        4, 0, "0.0.0.0", 9000, 4, 2, True)
    assert Settings.from_env({"TRUST_PROXY": "yes", "ACCESS_LOG": "0"}).trust_proxy == 1  # any other word: one proxy
    assert not Settings.from_env({"ACCESS_LOG": "0"}).access_log


@pytest.mark.parametrize("name", ["PORT", "WORKERS", "MAX_CONTENT_LENGTH", "DB_POOL_SIZE"])
def test_a_number_that_is_not_one_stops_the_start_naming_the_variable(name):
    with pytest.raises(SystemExit, match=name):
        Settings.from_env({name: "lots"})


def test_the_app_takes_its_settings_from_the_environment_once(monkeypatch, tmp_path):
    monkeypatch.setenv("PUBLIC_URL", "https://rummy.example.org")
    monkeypatch.setenv("TRUSTED_HOSTS", "rummy.example.org")
    monkeypatch.setenv("RATE_LIMIT_WRITES", "3 per minute")
    monkeypatch.setenv("MAX_CONTENT_LENGTH", "5000")
    monkeypatch.setenv("DB_POOL_SIZE", "4")
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}"})
    assert app.config["PUBLIC_URL"] == "https://rummy.example.org"
    assert app.config["TRUSTED_HOSTS"] == ["rummy.example.org"]
    assert app.config["RATE_LIMIT_WRITES"] == "3 per minute" and app.config["MAX_CONTENT_LENGTH"] == 5000
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_size"] == 4 == pool_options(app.config)["pool_size"]
    assert app.config["RATELIMIT_ENABLED"] is False  # (a test app counts writes only where a test asks)
    monkeypatch.setenv("PUBLIC_URL", "https://elsewhere.example.org")  # read at the start, not later
    assert app.config["PUBLIC_URL"] == "https://rummy.example.org"
    # a test's (or instance/config.py's) own keys win over the environment
    other = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'b.sqlite3'}",
                        "PUBLIC_URL": "http://table.local:8000"})
    assert other.config["PUBLIC_URL"] == "http://table.local:8000"
