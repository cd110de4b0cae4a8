// A stand-in for conform that prints the report in $FAKE_REPORT and exits
// with $FAKE_STATUS: how the helper reads reports conform may write.
process.stdout.write(process.env.FAKE_REPORT ?? '');
process.stderr.write('fake conform: done\n');
process.exitCode = Number(process.env.FAKE_STATUS ?? '0');
