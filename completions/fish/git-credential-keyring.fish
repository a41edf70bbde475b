function __git-credential-keyring_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-keyring_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __git-credential-keyring_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-keyring_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __git-credential-keyring_parse_tokens -S
    set -l unparsed_tokens (__git-credential-keyring_tokens -pc)
    switch $unparsed_tokens[1]
    case 'git-credential-keyring'
        __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        switch $unparsed_tokens[1]
        case 'get'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'store'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'erase'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'capability'
            __git-credential-keyring_parse_subcommand 0 'h/help'
        case 'list'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'import'
            __git-credential-keyring_parse_subcommand 1 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'which'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'help'
            __git-credential-keyring_parse_subcommand -r 1 
        end
    end
end

function __git-credential-keyring_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __git-credential-keyring_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __git-credential-keyring_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __git-credential-keyring_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__git-credential-keyring_tokens -p)
    if test -z "$(__git-credential-keyring_tokens -t)"
        set -l index (count (__git-credential-keyring_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'git-credential-keyring' -f
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'get' -d 'Print the stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'store' -d 'Store the credential on stdin, replacing the one for the same user and location (git calls this).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'erase' -d 'Erase every stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'capability' -d 'Print the protocol capabilities this helper supports.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'list' -d 'List stored credentials: protocol, host, path, user and expiry, never a secret.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'import' -d 'Import a git-credential-store file (one URL per line, as ~/.git-credentials).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'which' -d 'Say which store a credential would go to now, and why.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring capability" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" h help' -s 'h' -l 'help' -d 'Show help information.'
