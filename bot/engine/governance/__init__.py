"""Governance by mail (seed 004): polls, proposals and the Ballot, CFIs, elections, Ministries."""
