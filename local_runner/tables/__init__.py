"""Playing tables: the match configuration, who sits at a table (:mod:`.spec`), one table over
real processes (:mod:`.scrimmage`), the same deals in every seating (:mod:`.duplicate`), every
group of bots (:mod:`.tournament`) and where a tournament's matches run (:mod:`.executors`)."""
