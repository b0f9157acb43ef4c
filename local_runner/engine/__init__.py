"""The reference engine: a match (:mod:`.match`), the cards (:mod:`.dealer`), who sits where
(:mod:`.seating`), the seats a bot sits in (in process, over a socket, on the ACPC wire) and
the views that turn a hand's events into each wire's messages."""
