window.fanoutSearchData = [
{"username":"alice","uid":"uidAlice0000000000000000000","url":"users/uidalice0000000000000000000~16d866f4f70a/index.html"},
{"username":"bob","uid":"uidBob0000000000000000000","url":"users/uidbob0000000000000000000~450a3198e24e/index.html"},
{"username":"carol_sings","uid":"uidCarol0000000000000000000","url":"users/uidcarol0000000000000000000~09fb5869186e/index.html"},
{"username":"dave","uid":"uidDave0000000000000000000","url":"users/uiddave0000000000000000000~1e19cbd93dd4/index.html"},
{"username":"erin","uid":"uidErin0000000000000000000","url":"users/uiderin0000000000000000000~922d89acb577/index.html"},
{"username":"frank","uid":"uidFrank0000000000000000000","url":"users/uidfrank0000000000000000000~41ca8a7e0633/index.html"}
];
