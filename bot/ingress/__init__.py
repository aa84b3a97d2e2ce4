"""Ingress: IMAP poller, SMTP server and archive replay, all feeding ``ingest()``."""
