function __git-credential-sqlite_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-sqlite_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __git-credential-sqlite_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-sqlite_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __git-credential-sqlite_parse_tokens -S
    set -l unparsed_tokens (__git-credential-sqlite_tokens -pc)
    switch $unparsed_tokens[1]
    case 'git-credential-sqlite'
        __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'get'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'store'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'erase'
            __git-credential-sqlite_parse_subcommand 1 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'capability'
            __git-credential-sqlite_parse_subcommand 0 'version' 'h/help'
        case 'list'
            __git-credential-sqlite_parse_subcommand 1 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'format=' 'version' 'h/help'
        case 'erase-all'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'yes' 'version' 'h/help'
        case 'import'
            __git-credential-sqlite_parse_subcommand -r 1 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'from=' 'remove-source' 'file-passphrase-fd=' 'version' 'h/help'
        case 'export'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'plaintext' 'format=' 'o/output=' 'file-passphrase-fd=' 'version' 'h/help'
        case 'doctor'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'configure'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'global' 'system' 'local' 'url=' 'version' 'h/help'
        case 'unconfigure'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'global' 'system' 'local' 'url=' 'version' 'h/help'
        case 'init'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'passphrase' 'version' 'h/help'
        case 'passwd'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'new-passphrase-fd=' 'version' 'h/help'
        case 'unlock'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'timeout=' 'version' 'h/help'
        case 'lock'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'status'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'help'
            __git-credential-sqlite_parse_subcommand -r 1 'version'
        end
    end
end

function __git-credential-sqlite_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __git-credential-sqlite_parse_subcommand -S -a positional_count
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

function __git-credential-sqlite_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __git-credential-sqlite_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__git-credential-sqlite_tokens -p)
    if test -z "$(__git-credential-sqlite_tokens -t)"
        set -l index (count (__git-credential-sqlite_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'git-credential-sqlite' -f
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'get' -d 'Print the stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'store' -d 'Store the credential on stdin, replacing the one for the same user and location (git calls this).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'erase' -d 'Erase every stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'capability' -d 'Print the protocol capabilities this helper supports.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'list' -d 'List stored credentials: protocol, host, path, user, expiry and backend, never a secret.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'erase-all' -d 'Erase every credential this helper stores: sign out everywhere.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'import' -d 'Import credentials from git-credential-store files, a netrc file, an export file or another backend.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'export' -d 'Export every stored credential, encrypted with a passphrase unless --plaintext.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'doctor' -d 'Check the setup and say what to fix: PATH, git and its configuration, the store, a round trip.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'configure' -d 'Make git use this helper (writes credential.helper).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'unconfigure' -d 'Stop git using this helper (removes what configure wrote).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'init' -d 'Create the store, with a key file or (--passphrase) protected by a passphrase.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'passwd' -d 'Change the passphrase of a passphrase-protected store.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'unlock' -d 'Keep the unlocked key in the kernel keyring for a while, so git is not asked for the passphrase.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'lock' -d 'Drop the unlocked key from the kernel keyring.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'status' -d 'The store and key git uses, locked until when, the helper git asks first.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite erase" -eq 1' -fka '(__git-credential-sqlite_custom_completion ---completion erase -- positional@0 (count (__git-credential-sqlite_tokens -pc)) (__git-credential-sqlite_tokens -tC))'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite capability" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite capability" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" format' -l 'format' -d 'table for people, json for scripts.' -rfka 'table json'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite list" -eq 1' -fka '(__git-credential-sqlite_custom_completion ---completion list -- positional@0 (count (__git-credential-sqlite_tokens -pc)) (__git-credential-sqlite_tokens -tC))'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase-all" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase-all" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase-all" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase-all" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase-all" yes' -l 'yes' -d 'Do not ask for confirmation.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase-all" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase-all" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" from' -l 'from' -d 'Import from this backend\'s store: sqlite, secretservice, pass, or gcm (Git Credential Manager\'s stores).' -rfka 'sqlite secretservice pass gcm'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" remove-source' -l 'remove-source' -d 'Wipe each plaintext source file once every credential in it reads back.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" file-passphrase-fd' -l 'file-passphrase-fd' -d 'Read an export file\'s passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite import" -ge 1' -F
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" plaintext' -l 'plaintext' -d 'Write the secrets in clear (git-credential-store format).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" format' -l 'format' -d 'With --plaintext: store (one URL per line) or protocol (git\'s key=value records).' -rfka 'store protocol'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" o output' -l 'output' -s 'o' -d 'The file to write; it must not exist yet (- for standard output).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" file-passphrase-fd' -l 'file-passphrase-fd' -d 'Read the export file\'s passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite doctor" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite doctor" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite doctor" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite doctor" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite doctor" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" global' -l 'global' -d 'Your own git configuration (~/.gitconfig); the default.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" system' -l 'system' -d 'Every user\'s (/etc/gitconfig; needs root).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" local' -l 'local' -d 'The current repository\'s.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" url' -l 'url' -d 'Only for this URL (credential.<url>.helper), e.g. https://github.com.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite configure" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" global' -l 'global' -d 'Your own git configuration (~/.gitconfig); the default.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" system' -l 'system' -d 'Every user\'s (/etc/gitconfig; needs root).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" local' -l 'local' -d 'The current repository\'s.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" url' -l 'url' -d 'Only for this URL (credential.<url>.helper), e.g. https://github.com.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unconfigure" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" passphrase' -l 'passphrase' -d 'Protect the store with a passphrase instead of a key file.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" new-passphrase-fd' -l 'new-passphrase-fd' -d 'Read the new passphrase from this file descriptor.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" timeout' -l 'timeout' -d 'How long: seconds, or a number with s, m, h or d (at most 365d).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite status" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite status" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite status" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite status" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite status" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite help" version' -l 'version' -d 'Show the version.'
