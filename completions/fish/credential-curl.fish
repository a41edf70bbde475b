function __credential-curl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __credential-curl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __credential-curl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __credential-curl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __credential-curl_parse_tokens -S
    set -l unparsed_tokens (__credential-curl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'credential-curl'
        __credential-curl_parse_subcommand -r 1 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __credential-curl_parse_subcommand -r 1 'version'
        end
    end
end

function __credential-curl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __credential-curl_parse_subcommand -S -a positional_count
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

function __credential-curl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __credential-curl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__credential-curl_tokens -p)
    if test -z "$(__credential-curl_tokens -t)"
        set -l index (count (__credential-curl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'credential-curl' -f
complete -c 'credential-curl' -n '__credential-curl_should_offer_completions_for_positional "credential-curl" -ge 1' -fka '--silent --show-error --fail --fail-with-body --fail-early --location --max-redirs --post301 --post302 --post303 --include --head --output --remote-name --remote-header-name --output-dir --create-dirs --create-file-mode --clobber --dump-header --write-out --progress-bar --progress-meter --request --header --user-agent --referer --cookie --cookie-jar --junk-session-cookies --get --data --data-binary --data-raw --data-ascii --data-urlencode --json --form --form-string --upload-file --range --continue-at --time-cond --remote-time --etag-save --etag-compare --max-filesize --max-time --connect-timeout --expect100-timeout --keepalive-time --retry --retry-delay --retry-max-time --retry-connrefused --retry-all-errors --speed-limit --speed-time --limit-rate --compressed --tr-encoding --http1.0 --http1.1 --http2 --http2-prior-knowledge --ipv4 --ipv6 --noproxy --cacert --capath --cert --cert-type --key --key-type --crlfile --pinnedpubkey --ciphers --tls13-ciphers --curves --tls-max --tlsv1 --tlsv1.2 --tlsv1.3 --ssl-reqd --proto --proto-redir --path-as-is --raw --buffer --keepalive --tcp-nodelay --sessionid --alpn --url-query'
complete -c 'credential-curl' -n '__credential-curl_should_offer_completions_for_flags_or_options "credential-curl" version' -l 'version' -d 'Show the version.'
complete -c 'credential-curl' -n '__credential-curl_should_offer_completions_for_flags_or_options "credential-curl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'credential-curl' -n '__credential-curl_should_offer_completions_for_positional "credential-curl" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'credential-curl' -n '__credential-curl_should_offer_completions_for_flags_or_options "credential-curl help" version' -l 'version' -d 'Show the version.'
