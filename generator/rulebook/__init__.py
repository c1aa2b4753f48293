"""The rulebook: rules.yaml and the catalog resolved per edition, then flowed into A5 pages."""
