window.fanoutSearchData = [
{"username":"alice","uid":"uidAlice0000000000000000000","url":"users/uid~41lice0000000000000000000/index.html"},
{"username":"bob","uid":"uidBob0000000000000000000","url":"users/uid~42ob0000000000000000000/index.html"},
{"username":"carol_sings","uid":"uidCarol0000000000000000000","url":"users/uid~43arol0000000000000000000/index.html"},
{"username":"dave","uid":"uidDave0000000000000000000","url":"users/uid~44ave0000000000000000000/index.html"},
{"username":"erin","uid":"uidErin0000000000000000000","url":"users/uid~45rin0000000000000000000/index.html"},
{"username":"frank","uid":"uidFrank0000000000000000000","url":"users/uid~46rank0000000000000000000/index.html"}
];
