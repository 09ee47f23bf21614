// @ts-check
'use strict';

/**
 * The remote actions, workflows and campaigns every server starts with (tests, the demo estate and
 * `npm start` alike): API-enabled ones and ones that are not, script inputs with a fixed list of
 * values or free text, workflows of each dependency and trigger method, one waiting for an event, one
 * inactive, and campaigns with and without parameters. Uuids are fixed so tests can name them.
 */

/** @type {import('./actions').RemoteActionSpec[]} */
const DEFAULT_REMOTE_ACTIONS = [
	{
		id: '#restart_service',
		uuid: 'f1000000-0000-4000-8000-000000000001',
		name: 'Restart a Windows service',
		description: 'Restarts a Windows service and sets its start type.',
		purpose: ['REMEDIATION'],
		inputs: [
			{ id: 'ServiceName', name: 'Service name', description: 'Name of the service (or any other)', options: ['Spooler', 'wuauserv', 'BITS'], allowCustomValue: true },
			{ id: 'StartType', name: 'Start type', description: 'Start type after the restart', options: ['Automatic', 'Manual', 'Disabled'], allowCustomValue: false },
		],
		outputs: [{ id: 'ServiceStatus', name: 'Service status', type: 'string', description: 'Status after the restart' }],
	},
	{
		id: '#kill_runaway_process',
		uuid: 'f1000000-0000-4000-8000-000000000002',
		name: 'Stop a process using too much CPU',
		description: 'Stops a process whose CPU usage stays above the threshold.',
		purpose: ['REMEDIATION'],
		hasScriptMacOs: true,
		inputs: [
			{ id: 'ProcessName', name: 'Process name', description: 'Executable name, e.g. chrome.exe' },
			{ id: 'CpuThresholdPercent', name: 'CPU threshold (%)', options: ['50', '70', '90'], allowCustomValue: true },
			{ id: 'Force', name: 'Force', options: ['true', 'false'], allowCustomValue: false },
		],
		outputs: [
			{ id: 'Stopped', name: 'Stopped', type: 'bool' },
			{ id: 'CpuBefore', name: 'CPU before (%)', type: 'int' },
		],
	},
	{
		id: '#clear_teams_cache',
		uuid: 'f1000000-0000-4000-8000-000000000003',
		name: 'Clear Microsoft Teams cache',
		description: 'Clears the Teams cache of the signed-in user.',
		purpose: ['REMEDIATION'],
		runAs: 'INTERACTIVE_USER',
		outputs: [{ id: 'FreedMegabytes', name: 'Freed (MB)', type: 'int' }],
	},
	{
		id: '#get_battery_health',
		uuid: 'f1000000-0000-4000-8000-000000000004',
		name: 'Get battery health',
		description: 'Reads the battery design and full-charge capacity.',
		purpose: ['DATA_COLLECTION'],
		hasScriptMacOs: true,
		outputs: [{ id: 'BatteryHealthPercent', name: 'Battery health (%)', type: 'int' }],
	},
	{
		id: '#collect_crash_dumps',
		uuid: 'f1000000-0000-4000-8000-000000000005',
		name: 'Collect crash dumps (manual only)',
		description: 'Not API-enabled: only triggered by hand from Nexthink.',
		purpose: ['DATA_COLLECTION'],
		apiEnabled: false,
		inputs: [{ id: 'Days', name: 'Days back', options: ['1', '7', '30'], allowCustomValue: false }],
	},
	{
		id: '#reset_network_stack',
		uuid: 'f1000000-0000-4000-8000-000000000006',
		name: 'Reset network stack (workflows only)',
		description: 'Not API-enabled: used by workflows.',
		purpose: ['REMEDIATION'],
		apiEnabled: false,
		manualEnabled: false,
	},
];

/** @type {import('./actions').WorkflowSpec[]} */
const DEFAULT_WORKFLOWS = [
	{
		id: '#repair_teams',
		uuid: 'f2000000-0000-4000-8000-000000000001',
		name: 'Repair Microsoft Teams',
		description: 'Diagnoses Teams and repairs it on the device.',
		dependency: 'DEVICE',
		triggerMethods: { apiEnabled: true, manualEnabled: true, manualMultipleEnabled: true },
	},
	{
		id: '#password_expiry_reminder',
		uuid: 'f2000000-0000-4000-8000-000000000002',
		name: 'Password expiry reminder',
		description: 'Reminds the user to change their password.',
		dependency: 'USER',
		triggerMethods: { apiEnabled: true, schedulerEnabled: true },
		parameters: [{ id: 'reason' }],
	},
	{
		id: '#onboard_user_device',
		uuid: 'f2000000-0000-4000-8000-000000000003',
		name: 'Onboard user and device',
		description: 'Checks a new user’s device and sends a welcome message.',
		dependency: 'USER_AND_DEVICE',
		triggerMethods: { apiEnabled: true },
		parameters: [{ id: 'site', options: ['Zürich', 'Lisboa', 'New York'], allowCustomValue: false }],
	},
	{
		id: '#disk_cleanup_with_approval',
		uuid: 'f2000000-0000-4000-8000-000000000004',
		name: 'Disk cleanup after approval',
		description: 'Measures the disk, then waits for an approval event before cleaning up.',
		dependency: 'DEVICE',
		triggerMethods: { apiEnabled: true },
		waitForEvent: true,
	},
	{
		id: '#weekly_license_review',
		uuid: 'f2000000-0000-4000-8000-000000000005',
		name: 'Weekly license review (scheduled only)',
		description: 'Not API-enabled: runs on a schedule.',
		dependency: 'NONE',
		triggerMethods: { schedulerEnabled: true },
	},
	{
		id: '#manual_disk_cleanup',
		uuid: 'f2000000-0000-4000-8000-000000000006',
		name: 'Disk cleanup (manual only)',
		description: 'Not API-enabled: triggered by hand on one or more devices.',
		dependency: 'DEVICE',
		triggerMethods: { manualEnabled: true, manualMultipleEnabled: true },
	},
	{
		id: '#legacy_inventory_sync',
		uuid: 'f2000000-0000-4000-8000-000000000007',
		name: 'Legacy inventory sync (inactive)',
		description: 'API-enabled but inactive.',
		status: 'INACTIVE',
		dependency: 'DEVICE',
		triggerMethods: { apiEnabled: true },
	},
];

/** @type {import('./actions').CampaignSpec[]} */
const DEFAULT_CAMPAIGNS = [
	{ id: '#device_replacement_survey', name: 'Is your device slowing you down?', parameters: ['device_name', 'device_age_years'] },
	{ id: '#it_satisfaction', name: 'How satisfied are you with IT support?' },
	{ id: '#manual_announcement', name: 'Office move announcement (not API-enabled)', apiEnabled: false },
];

/** @param {import('./actions').ActionStore} store */
function loadDefaultActions(store) {
	for (const ra of DEFAULT_REMOTE_ACTIONS) store.addRemoteAction(ra);
	for (const wf of DEFAULT_WORKFLOWS) store.addWorkflow(wf);
	for (const campaign of DEFAULT_CAMPAIGNS) store.addCampaign(campaign);
}

module.exports = { loadDefaultActions, DEFAULT_REMOTE_ACTIONS, DEFAULT_WORKFLOWS, DEFAULT_CAMPAIGNS };
