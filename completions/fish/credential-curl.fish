# fish completion for credential-curl (hand-written): it takes curl's arguments, so it
# completes them as curl does.
complete -c credential-curl -w curl
