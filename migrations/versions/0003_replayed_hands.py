"""Hands replayed to break a tie

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 12:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hands') as batch_op:
        batch_op.add_column(sa.Column('replay', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('hands') as batch_op:
        batch_op.drop_column('replay')
