# fish completion for credential-curl (hand-written): the curl options it passes on, as it
# lists them itself (credential-curl --list-options), never the ones it refuses.
complete -c credential-curl -n 'string match -q -- "-*" (commandline -ct)' -a '(credential-curl --list-options)'
