"""Browser tests of the web page (a package, so that its conftest has its own module name)."""
