# fish complete.fish WORD... : the candidates fish offers for the last WORD (empty to
# complete a new word) of the command line WORD..., one a line (candidate, a tab, its
# description), with `complete -C`. Completions load as in an interactive fish:
# autoloaded from $XDG_DATA_DIRS/fish/vendor_completions.d among others.
complete -C (string join ' ' -- $argv)
